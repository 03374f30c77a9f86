import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Audience } from "@shared/contracts/posts";
import type { PostView } from "@shared/contracts/posts";
import { Notice } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { useRootData } from "~/root";
import { AttachmentTile } from "~/components/posts/attachment-tile";
import { MediaFileInput } from "~/components/posts/media-file-input";
import { AudienceSelect, PostTextField, PriceField, ScheduleField } from "~/components/posts/post-fields";
import { centsFromDollars, isoFromLocalInput } from "~/components/posts/post-values";
import { MAX_ATTACHMENTS, useAttachments } from "~/components/posts/use-attachments";
import { postShape } from "~/lib/api-shapes";
import { FromVaultButton } from "~/components/vault/from-vault-button";

type Errors = Record<string, string[]>;

/**
 * The creator's composer (top of /home, anchor #compose): text, photos and videos uploading with a progress bar
 * each, who can see it (required), an optional price, and publish now or at a time in the creator's zone.
 * Posting while uploads still run creates a processing post that the uploads complete. `onPublished` receives
 * a post published now, for the timeline to show first.
 */
export function Composer({ onPublished }: { onPublished?: (post: PostView) => void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const uploads = useAttachments(useRootData()?.csrfToken ?? null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [audience, setAudience] = useState<Audience | "">("");
  const [price, setPrice] = useState("");
  const [when, setWhen] = useState<"now" | "later">("now");
  const [publishAt, setPublishAt] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<PostView | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // "New post" (the sidebar, /scheduled) leads to #compose: the text field takes the focus, ready to write.
  const { hash, key } = useLocation();
  useEffect(() => {
    if (hash !== "#compose") return;
    form.current?.scrollIntoView({ block: "start" });
    form.current?.querySelector("textarea")?.focus({ preventScroll: true });
  }, [hash, key]);

  /** A field's error goes as soon as the field changes: it was about the value that was there. */
  function edited<T>(field: string, set: (value: T) => void) {
    return (value: T) => {
      set(value);
      setErrors((current) =>
        field in current ? Object.fromEntries(Object.entries(current).filter(([key]) => key !== field)) : current,
      );
    };
  }

  function checkLocally(scheduledAt: string | null): Errors {
    const found: Errors = {};
    if (!text.trim() && uploads.attachments.length === 0) found.text = [t("Write something or add a photo or video.")];
    if (!audience) found.audience = [t("Who can see field is required!")];
    if (when === "later" && (!scheduledAt || new Date(scheduledAt).getTime() <= Date.now()))
      found.scheduledAt = [t("Choose a time in the future.")];
    if (uploads.attachments.some((item) => item.state === "failed"))
      found.mediaIds = [t("Remove the files that could not be uploaded.")];
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const scheduledAt = when === "later" ? isoFromLocalInput(publishAt) : null;
    const priceCents = centsFromDollars(price);
    const found = checkLocally(scheduledAt);
    if (priceCents === null) found.priceCents = [t("Enter a price in dollars, like 9.99.")];
    setErrors(found);
    setFormError(null);
    setCreated(null);
    if (Object.keys(found).length > 0 || priceCents === null) return;
    setSubmitting(true);
    try {
      const mediaIds = await uploads.mediaIds().catch(() => {
        throw new Error(t("Remove the files that could not be uploaded."));
      });
      const post = await api.post(
        "/posts",
        {
          text,
          audience,
          priceCents,
          mediaIds,
          ...(scheduledAt ? { scheduledAt } : {}),
        },
        postShape,
      );
      uploads.detach();
      setText("");
      setAudience("");
      setPrice("");
      setWhen("now");
      setPublishAt("");
      setCreated(post);
      if (post.status === "published") onPublished?.(post);
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(error.body.errors);
        if (Object.keys(error.body.errors).length === 0) setFormError(error.body.message);
      } else {
        setFormError(error instanceof Error ? error.message : String(error));
      }
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form
      ref={form}
      id="compose"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={t("New post")}
      className="space-y-4 border-b border-slate-200 p-4 dark:border-slate-800"
    >
      <PostTextField
        value={text}
        onChange={edited("text", setText)}
        errors={errors.text}
        placeholder={t("What would you like to share?")}
      />

      {uploads.attachments.length > 0 ? (
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label={t("Photos and videos")}>
          {uploads.attachments.map((attachment) => (
            <AttachmentTile
              key={attachment.key}
              attachment={attachment}
              onRemove={() => uploads.remove(attachment.key)}
            />
          ))}
        </ul>
      ) : null}
      {errors.mediaIds ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.mediaIds.join(" ")}
        </p>
      ) : null}

      <div>
        <MediaFileInput
          inputRef={fileInput}
          testId="composer-files"
          uploads={uploads}
          max={MAX_ATTACHMENTS}
          onTooMany={() =>
            setErrors((current) => ({ ...current, mediaIds: [t("A post may have at most 20 photos and videos.")] }))
          }
        />
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary w-auto" onClick={() => fileInput.current?.click()}>
            {t("Add photos or videos")}
          </button>
          <FromVaultButton
            className="btn-secondary w-auto"
            max={MAX_ATTACHMENTS - uploads.attachments.length}
            onPick={uploads.addFromVault}
          />
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <AudienceSelect value={audience} onChange={edited("audience", setAudience)} errors={errors.audience} />
        <PriceField value={price} onChange={edited("priceCents", setPrice)} errors={errors.priceCents} />
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t("When")}</legend>
        <div className="flex gap-6">
          <label className="flex items-center gap-2">
            <input type="radio" name="when" value="now" checked={when === "now"} onChange={() => setWhen("now")} />
            {t("Post now")}
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="when"
              value="later"
              checked={when === "later"}
              onChange={() => setWhen("later")}
            />
            {t("Schedule")}
          </label>
        </div>
        {when === "later" ? (
          <ScheduleField value={publishAt} onChange={edited("scheduledAt", setPublishAt)} errors={errors.scheduledAt} />
        ) : null}
      </fieldset>

      {formError ? <Notice tone="error">{formError}</Notice> : null}
      {created ? <CreatedNotice post={created} /> : null}

      <div className="flex justify-end">
        <button type="submit" className="btn-primary w-auto" disabled={submitting}>
          {submitting ? t("Posting…") : when === "now" ? t("Post now") : t("Schedule")}
        </button>
      </div>
    </form>
  );
}

function CreatedNotice({ post }: { post: PostView }) {
  const { t } = useTranslation();
  if (post.status === "processing") {
    return (
      <Notice tone="info">
        {t("Your post will be published when its uploads finish. Keep this page open until then.")}{" "}
        <Link to="/processing" className="link">
          {t("See processing posts")}
        </Link>
      </Notice>
    );
  }
  if (post.status === "scheduled") {
    return (
      <Notice tone="success">
        {t("Your post is scheduled.")} <LocalTime iso={post.scheduledAt!} className="font-medium" />{" "}
        <Link to="/scheduled" className="link">
          {t("See scheduled posts")}
        </Link>
      </Notice>
    );
  }
  return (
    <Notice tone="success">
      {t("Your post is published.")}{" "}
      <Link to={`/post/${post.id}`} className="link">
        {t("View post")}
      </Link>
    </Notice>
  );
}
