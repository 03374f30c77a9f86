import type { WelcomeMessageInput, WelcomeMessageView } from "@shared/contracts/welcome-messages";
import type { UserRow } from "../accounts/users";
import type { DomainContext } from "../context";
import { assertSendable, checkMessageInput } from "../messages/send-message";
import { isoNow } from "../shared/time";
import { getWelcomeMessage, requireCreator } from "./get-welcome-message";

/**
 * Saves the creator's welcome message. It must be a message the creator could send in a chat (text or media, a
 * price only with media, within the price range: the chat's own checks), though one turned off may be left
 * blank. Its files are the creator's finished content uploads (their vault); one file goes to every new subscriber,
 * so a file already sent elsewhere may be chosen.
 */
export async function setWelcomeMessage(
  ctx: Pick<DomainContext, "db">,
  creator: UserRow,
  input: WelcomeMessageInput,
): Promise<WelcomeMessageView> {
  const { db } = ctx;
  requireCreator(creator);
  const blank = input.text.trim() === "" && input.mediaIds.length === 0;
  // Off, it may be left blank; anything written follows the chat's rules, so turning it on later needs no fix.
  const text = input.enabled || !blank ? checkMessageInput({ clientId: "welcome", ...input }, creator).text : "";
  await assertSendable(db, creator.id, input.mediaIds);
  await db
    .prepare(
      `INSERT INTO welcome_messages (creator_id, enabled, text, price_cents, media_ids, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (creator_id) DO UPDATE SET enabled = ?2, text = ?3, price_cents = ?4, media_ids = ?5, updated_at = ?6`,
    )
    .bind(
      creator.id,
      input.enabled ? 1 : 0,
      text,
      input.mediaIds.length > 0 ? input.priceCents : 0,
      JSON.stringify(input.mediaIds),
      isoNow(),
    )
    .run();
  return getWelcomeMessage(db, creator);
}
