import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listAlbums } from "@worker/domain/vault/list-albums";
import { listVault } from "@worker/domain/vault/list-vault";
import { VAULT_KINDS, type VaultItem } from "@shared/contracts/vault";
import { EmptyState, PageHeader } from "~/components/page";
import { LoadMore } from "~/components/load-more-button";
import type { ShellHandle } from "~/components/shell/app-shell";
import { VaultAlbums } from "~/components/vault/vault-albums";
import { VaultFilters, vaultQuery, type VaultFilterValues } from "~/components/vault/vault-filters";
import { VaultItemCard } from "~/components/vault/vault-item-card";
import { vaultPageShape } from "~/components/vault/vault-shapes";
import { VaultUploads } from "~/components/vault/vault-uploads";
import { requireCreator } from "~/lib/forms.server";
import { useSession } from "~/lib/session";
import { usePagedList } from "~/lib/use-paged-list";
import { pageMeta, titleTag } from "~/i18n/meta";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Vault"))]);

export const handle: ShellHandle = { rightColumn: "none" };

/** The filters in the address (?kind=image|video, ?album=id); anything else shows everything. */
function filtersOf(params: URLSearchParams): VaultFilterValues {
  const kind = params.get("kind");
  const album = params.get("album") ?? "";
  return {
    kind: (VAULT_KINDS as readonly string[]).includes(kind ?? "") ? (kind as VaultItem["kind"]) : null,
    albumId: /^[1-9]\d{0,15}$/.test(album) ? Number(album) : null,
  };
}

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireCreator(context, request);
  const { db } = context.domain;
  const filters = filtersOf(new URL(request.url).searchParams);
  const [page, { albums }] = await Promise.all([
    listVault(db, user, { ...filters, conversationId: null, cursor: null }),
    listAlbums(db, user),
  ]);
  return { page, albums };
}

/**
 * /vault: every content file the creator has uploaded (for posts, messages, stories, or straight here), newest
 * first, by kind and album; upload many at once; albums; delete a file nothing uses.
 */
export default function VaultPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const { page, albums } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const revalidator = useRevalidator();
  const filters = filtersOf(params);
  const list = usePagedList(page, (cursor) => api.get(`/vault${vaultQuery(filters, null, cursor)}`, vaultPageShape));

  function filter(values: VaultFilterValues) {
    const next = new URLSearchParams();
    if (values.kind) next.set("kind", values.kind);
    if (values.albumId !== null) next.set("album", String(values.albumId));
    setParams(next, { preventScrollReset: true });
  }

  return (
    <>
      <PageHeader title={t("Vault")} />
      <div className="space-y-6 p-4">
        <VaultUploads onUploaded={() => revalidator.revalidate()} />
        <VaultAlbums
          albums={albums}
          onChanged={(deletedId) => {
            if (deletedId !== undefined && deletedId === filters.albumId) filter({ ...filters, albumId: null });
            else revalidator.revalidate();
          }}
        />
        <section aria-labelledby="vault-files-title" className="space-y-3">
          <h2 id="vault-files-title" className="text-lg font-semibold">
            {t("Files")}
          </h2>
          <VaultFilters values={filters} albums={albums} onChange={filter} />
          {list.items.length === 0 ? (
            <EmptyState
              icon="vault"
              title={t("No files here yet")}
              text={t("Upload photos and videos once, then use them in posts, messages and stories.")}
            />
          ) : (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label={t("Your vault")} data-vault-grid>
              {list.items.map((item) => (
                <VaultItemCard
                  key={item.id}
                  item={item}
                  albums={albums}
                  onChanged={(changed) =>
                    list.setItems((items) => items.map((other) => (other.id === changed.id ? changed : other)))
                  }
                  onDeleted={() => list.setItems((items) => items.filter((other) => other.id !== item.id))}
                />
              ))}
            </ul>
          )}
          <LoadMore list={list} />
        </section>
      </div>
    </>
  );
}
