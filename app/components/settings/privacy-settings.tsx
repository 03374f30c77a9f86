import { DeleteAccountSettings } from "~/components/settings/delete-account-settings";
import { ExportSettings } from "~/components/settings/export-settings";

/** Settings → Privacy and data: a creator's geo-blocking and watermark, the data export and account deletion. */
export function PrivacySettings() {
  return (
    <div className="space-y-8">
      <ExportSettings />
      <DeleteAccountSettings />
    </div>
  );
}
