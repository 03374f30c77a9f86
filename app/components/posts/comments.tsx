import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CommentView } from "@shared/contracts/posts";
import { LocalTime } from "~/components/local-time";
import { Avatar } from "~/components/shell/avatar";
import { OUTBOX_SENT, sendOrKeep, useOutboxEntries, type OutboxEntry } from "~/lib/outbox";
import { commentAnswerShape } from "~/lib/comment-shape";
import { commentPageShape } from "~/components/posts/comment-page-shape";
import { useSession } from "~/lib/session";
import { failureText } from "~/lib/failure-text";

export type { CommentView };

/**
 * The comments under a post open to the reader: oldest first, "Show more comments" for the next page, a form to
 * add one (signed in), and Delete on the reader's own comments and, for the post's author, on every comment.
 */
export function Comments({
  postId,
  initial,
  onCountChange,
}: {
  postId: number;
  initial: { comments: CommentView[]; nextCursor: string | null };
  onCountChange(delta: number): void;
}) {
  const { t } = useTranslation();
  const { api, isAuth } = useSession();
  const [comments, setComments] = useState(initial.comments);
  const [nextCursor, setNextCursor] = useState(initial.nextCursor);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Comment stays disabled in the server's render (the field is empty there) until the page has hydrated; what was
  // typed before that is in the field but not in the state, and enables it now.
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const typed = field.current?.value;
    if (typed) setText(typed);
  }, []);

  // Comments made offline wait in the outbox (shown below the list) and join it once the server has them.
  const waiting = useOutboxEntries().filter(
    (entry) => entry.status === "pending" && entry.action.kind === "comment" && entry.action.postId === postId,
  );
  const countChange = useRef(onCountChange);
  countChange.current = onCountChange;
  useEffect(() => {
    const arrived = (event: Event) => {
      const { entry, answer } = (event as CustomEvent<{ entry: OutboxEntry; answer: unknown }>).detail;
      if (entry.action.kind !== "comment" || entry.action.postId !== postId) return;
      const { comment } = commentAnswerShape(answer);
      setComments((list) => (list.some((known) => known.id === comment.id) ? list : [...list, comment]));
      countChange.current(1);
    };
    window.addEventListener(OUTBOX_SENT, arrived);
    return () => window.removeEventListener(OUTBOX_SENT, arrived);
  }, [postId]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const clientId = crypto.randomUUID();
    try {
      const sent = await sendOrKeep(
        api,
        { kind: "comment", postId, text },
        (signal) => api.post(`/posts/${postId}/comments`, { text, clientId }, commentAnswerShape, { signal }),
        clientId,
      );
      if (sent) {
        setComments((list) => [...list, sent.answer.comment]);
        onCountChange(1);
      }
      setText("");
    } catch (caught) {
      setError(failureText(t, caught));
    } finally {
      setBusy(false);
    }
  }

  async function remove(comment: CommentView) {
    if (!window.confirm(t("Delete this comment?"))) return;
    try {
      await api.delete(`/comments/${comment.id}`);
      setComments((list) => list.filter((c) => c.id !== comment.id));
      onCountChange(-1);
    } catch (caught) {
      setError(failureText(t, caught));
    }
  }

  async function showMore() {
    if (!nextCursor) return;
    const page = await api.get(`/posts/${postId}/comments?cursor=${nextCursor}`, commentPageShape);
    setComments((list) => [...list, ...page.comments.filter((c) => !list.some((known) => known.id === c.id))]);
    setNextCursor(page.nextCursor);
  }

  return (
    <section
      id="comments"
      aria-labelledby="comments-title"
      className="space-y-3 border-t border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="comments-title" className="font-semibold">
        {t("Comments")}
      </h2>
      {comments.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("No comments yet.")}</p>
      ) : null}
      <ul className="space-y-3" data-comments>
        {comments.map((comment) => (
          <li key={comment.id} className="flex gap-3" data-comment-id={comment.id}>
            {/* The name beside it is the same link for keyboards and screen readers. */}
            <Link to={`/${comment.author.username}`} className="shrink-0" aria-hidden="true" tabIndex={-1}>
              <Avatar url={comment.author.avatarUrl} name={comment.author.name} />
            </Link>
            <div className="min-w-0 flex-1">
              <p className="text-sm">
                <Link to={`/${comment.author.username}`} className="font-semibold hover:underline">
                  {comment.author.name}
                </Link>{" "}
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  <LocalTime iso={comment.createdAt} />
                </span>
              </p>
              <p dir="auto" className="whitespace-pre-line break-words">
                {comment.text}
              </p>
            </div>
            {comment.canDelete ? (
              <button
                type="button"
                className="self-start text-sm text-red-700 hover:underline dark:text-red-400"
                onClick={() => void remove(comment)}
              >
                {t("Delete")}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {waiting.length > 0 ? (
        <ul className="space-y-2" aria-label={t("Waiting for the network")}>
          {waiting.map((entry) => (
            <li
              key={entry.id}
              data-testid="comment-waiting"
              className="whitespace-pre-line break-words text-slate-600 opacity-80 dark:text-slate-400"
            >
              {entry.action.kind === "comment" ? entry.action.text : null}
              <span className="ms-2 text-xs italic">{t("Waiting for the network")}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {nextCursor ? (
        <button type="button" className="link text-sm" onClick={() => void showMore()}>
          {t("Show more comments")}
        </button>
      ) : null}
      {isAuth ? (
        <form onSubmit={(event) => void submit(event)} className="space-y-2">
          <label htmlFor="comment-text" className="sr-only">
            {t("Write a comment")}
          </label>
          <textarea
            ref={field}
            id="comment-text"
            className="input"
            rows={2}
            maxLength={1000}
            placeholder={t("Write a comment")}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "comment-error" : undefined}
          />
          {error ? (
            <p id="comment-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn-primary w-auto" disabled={busy || text.trim() === ""}>
            {t("Comment")}
          </button>
        </form>
      ) : null}
    </section>
  );
}
