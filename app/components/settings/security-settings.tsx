import { DeviceSettings } from "~/components/settings/device-settings";
import { PasskeySettings } from "~/components/settings/passkey-settings";
import { TwoStepSettings } from "~/components/settings/two-step-settings";

/** Settings → Security: two-step sign-in, passkeys and the signed-in devices, one section each. */
export function SecuritySettings() {
  return (
    <div className="space-y-8">
      <TwoStepSettings />
      <PasskeySettings />
      <DeviceSettings />
    </div>
  );
}
