import { DeleteAccountSettings } from "~/components/settings/delete-account-settings";
import { ExportSettings } from "~/components/settings/export-settings";
import { GeoBlockSettings } from "~/components/settings/geo-block-settings";
import { WatermarkSettings } from "~/components/settings/watermark-settings";

/** Settings → Privacy and data: a creator's geo-blocking and watermark, the data export and account deletion. */
export function PrivacySettings() {
  return (
    <div className="space-y-8">
      <GeoBlockSettings />
      <WatermarkSettings />
      <ExportSettings />
      <DeleteAccountSettings />
    </div>
  );
}
