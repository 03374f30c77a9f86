import { Link } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FanMemberships } from "@shared/contracts/fan-lists";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { fanMembershipsShape } from "~/components/fan-lists/fan-list-shapes";

/**
 * "Add to list" for a creator looking at one of their fans (a profile, a chat's header, a list's row): a menu of
 * the creator's lists, each a checkbox that puts the fan in or takes them out. It reads the lists when opened.
 * Before the page's JavaScript (a <details> opens on its own) it offers the fan's page, whose forms do the same.
 * Nothing for anyone else: lists are a creator's alone.
 */
export function AddToList({ username, className = "" }: { username: string; className?: string }) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const [lists, setLists] = useState<FanMemberships["lists"] | null>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  if (!user?.isCreator || user.username.toLowerCase() === username.toLowerCase()) return null;
  const path = `/lists/memberships/${encodeURIComponent(username)}`;

  const failed = (error: unknown) =>
    setStatus(error instanceof ApiError ? error.body.message : t("Could not load more. Please try again."));

  async function open() {
    setStatus("");
    try {
      setLists((await api.get(path, fanMembershipsShape)).lists);
    } catch (error) {
      failed(error);
    }
  }

  async function toggle(list: FanMemberships["lists"][number]) {
    setBusy(true);
    setStatus("");
    const member = `/lists/${list.id}/fans/${encodeURIComponent(username)}`;
    try {
      if (list.member) {
        await api.delete(member);
        setLists(
          (current) => current?.map((each) => (each.id === list.id ? { ...each, member: false } : each)) ?? null,
        );
        setStatus(t("Removed from {{name}}", { name: list.name }));
      } else {
        setLists((await api.put(member, undefined, fanMembershipsShape)).lists);
        setStatus(t("Added to {{name}}", { name: list.name }));
      }
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <details
      className={`relative ${className}`}
      onToggle={(event) => {
        if (event.currentTarget.open) void open();
      }}
    >
      <summary className="btn-secondary cursor-pointer list-none">{t("Add to list")}</summary>
      <div className="absolute end-0 z-20 mt-1 w-64 space-y-2 rounded-xl border border-slate-200 bg-white p-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900">
        {lists === null ? null : lists.length === 0 ? (
          <p>{t("You have no lists yet.")}</p>
        ) : (
          <fieldset disabled={busy} className="space-y-1">
            <legend className="sr-only">{t("Your lists")}</legend>
            {lists.map((list) => (
              <label key={list.id} className="flex items-center gap-2">
                <input type="checkbox" checked={list.member} onChange={() => void toggle(list)} />
                <span dir="auto" className="truncate">
                  {list.name}
                </span>
              </label>
            ))}
          </fieldset>
        )}
        <p role="status" className="text-slate-600 dark:text-slate-400">
          {status}
        </p>
        <Link to={`/lists/fan/${encodeURIComponent(username)}`} className="link block">
          {t("Open the fan's page")}
        </Link>
        <Link to="/lists" className="link block">
          {t("Manage lists")}
        </Link>
      </div>
    </details>
  );
}
