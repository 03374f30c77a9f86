import { DeviceSettings } from "~/components/settings/device-settings";
import { PasskeySettings } from "~/components/settings/passkey-settings";

/** Settings → Security: two-step sign-in, passkeys and the signed-in devices, one section each. */
export function SecuritySettings() {
  return (
    <div className="space-y-8">
      <PasskeySettings />
      <DeviceSettings />
    </div>
  );
}
