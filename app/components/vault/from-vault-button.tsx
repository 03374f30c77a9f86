import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import type { VaultItem } from "@shared/contracts/vault";

// The picker's code is fetched when "From vault" is first pressed: a composer's first load carries none of it.
const VaultPicker = lazy(() =>
  import("~/components/vault/vault-picker").then((module) => ({ default: module.VaultPicker })),
);

/**
 * "From vault" in a composer: opens the creator's vault to pick files already uploaded, which the composer then
 * uses by their ids (nothing is uploaded again). In a chat (`conversationId`) each file says whether this fan was
 * already sent it and whether they bought it.
 */
export function FromVaultButton({
  max,
  onPick,
  conversationId,
  disabled,
  className = "btn-secondary",
  single = false,
}: {
  /** How many files may still be picked. */
  max: number;
  onPick: (items: VaultItem[]) => void;
  conversationId?: number;
  disabled?: boolean;
  className?: string;
  /** A composer that takes one file (a story): picking one closes the dialog. */
  single?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        data-needs-js
        disabled={disabled || max <= 0}
        onClick={() => setOpen(true)}
      >
        {t("From vault")}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <VaultPicker
            max={max}
            single={single}
            conversationId={conversationId ?? null}
            onPick={onPick}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
