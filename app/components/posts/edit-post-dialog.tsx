import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Audience } from "@shared/contracts/posts";
import type { PostView } from "@shared/contracts/posts";
import { Notice } from "~/components/forms";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { AudienceSelect, PostTextField, PriceField, ScheduleField } from "~/components/posts/post-fields";
import {
  centsFromDollars,
  dollarsFromCents,
  isoFromLocalInput,
  localInputFromIso,
} from "~/components/posts/post-values";
import { postShape } from "~/lib/api-shapes";

/**
 * Edits an own post in a modal dialog: text, who can see it and the price; the publication time too while it
 * is not published yet. The server answers the post as it is now, handed to `onSaved`.
 */
export function EditPostDialog({
  post,
  onSaved,
  onClose,
}: {
  post: PostView;
  onSaved: (post: PostView) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [text, setText] = useState(post.text);
  const [audience, setAudience] = useState<Audience | "">(post.audience);
  const [price, setPrice] = useState(dollarsFromCents(post.priceCents));
  const [publishAt, setPublishAt] = useState(
    post.scheduledAt && post.status !== "published" ? localInputFromIso(post.scheduledAt) : "",
  );
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const canReschedule = post.status !== "published" && post.scheduledAt !== null;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!audience) {
      setErrors({ audience: [t("Who can see field is required!")] });
      return;
    }
    const scheduledAt = canReschedule ? isoFromLocalInput(publishAt) : null;
    if (canReschedule && !scheduledAt) {
      setErrors({ scheduledAt: [t("Choose a time in the future.")] });
      return;
    }
    const priceCents = centsFromDollars(price);
    if (priceCents === null) {
      setErrors({ priceCents: [t("Enter a price in dollars, like 9.99.")] });
      return;
    }
    setSaving(true);
    try {
      const changedTime = scheduledAt && scheduledAt !== post.scheduledAt ? { scheduledAt } : {};
      onSaved(await api.patch(`/posts/${post.id}`, { text, audience, priceCents, ...changedTime }, postShape));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setErrors(error.body.errors);
      setFormError(Object.keys(error.body.errors).length === 0 ? error.body.message : null);
    } finally {
      setSaving(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="w-full max-w-lg rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60 dark:bg-slate-900 dark:text-slate-100"
    >
      <form onSubmit={(event) => void save(event)} noValidate className="space-y-4 p-5">
        <h2 id={titleId} className="text-lg font-semibold">
          {t("Edit post")}
        </h2>
        <PostTextField value={text} onChange={setText} errors={errors.text} />
        <AudienceSelect value={audience} onChange={setAudience} errors={errors.audience} />
        <PriceField value={price} onChange={setPrice} errors={errors.priceCents} />
        {canReschedule ? <ScheduleField value={publishAt} onChange={setPublishAt} errors={errors.scheduledAt} /> : null}
        {formError ? <Notice tone="error">{formError}</Notice> : null}
        <div className="flex justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={() => dialog.current?.close()}>
            {t("Cancel")}
          </button>
          <button type="submit" className="btn-primary w-auto" disabled={saving}>
            {saving ? t("Saving…") : t("Save")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
