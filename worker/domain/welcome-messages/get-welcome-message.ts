import type { WelcomeMessageView } from "@shared/contracts/welcome-messages";
import { message } from "@shared/messages";
import type { UserRow } from "../accounts/users";
import { mediaUrl } from "../media/uploads";
import { AppError } from "../shared/errors";

const ONLY_CREATORS_WELCOME = message("Only creators have a welcome message.");

/** The settings as stored; a creator who never saved any has none (off). */
interface WelcomeMessageRow {
  enabled: number;
  text: string;
  price_cents: number;
  media_ids: string;
}

/** Welcome messages are a creator's: a member asking for theirs is refused. */
export function requireCreator(user: Pick<UserRow, "role">) {
  if (user.role !== "creator") throw new AppError("forbidden", ONLY_CREATORS_WELCOME);
}

/** The creator's welcome message, with the files it sends as the creator sees them, in the order chosen. */
export async function getWelcomeMessage(db: D1Database, creator: UserRow): Promise<WelcomeMessageView> {
  requireCreator(creator);
  const row = await db
    .prepare("SELECT enabled, text, price_cents, media_ids FROM welcome_messages WHERE creator_id = ?")
    .bind(creator.id)
    .first<WelcomeMessageRow>();
  if (!row) return { enabled: false, text: "", priceCents: 0, media: [] };
  const { results } = await db
    .prepare(
      `SELECT media.id, media.kind, media.object_key FROM json_each(?1) AS chosen
       JOIN media ON media.id = chosen.value AND media.user_id = ?2 ORDER BY chosen.key`,
    )
    .bind(row.media_ids, creator.id)
    .all<{ id: number; kind: "image" | "video"; object_key: string }>();
  return {
    enabled: row.enabled === 1,
    text: row.text,
    priceCents: row.price_cents,
    media: results.map((media) => ({
      id: media.id,
      kind: media.kind,
      url: mediaUrl(media.object_key),
    })),
  };
}
