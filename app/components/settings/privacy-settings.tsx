import { WatermarkSettings } from "~/components/settings/watermark-settings";

/** Settings → Privacy and data: a creator's geo-blocking and watermark, the data export and account deletion. */
export function PrivacySettings() {
  return (
    <div className="space-y-8">
      <WatermarkSettings />
    </div>
  );
}
