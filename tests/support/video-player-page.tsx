// A page with nothing but the app's VideoPlayer, for tests/e2e/video-playback.test.ts: bundled by the test with
// esbuild, it renders the video given to `window.mountPlayer` across the page's width, in English.
import i18next from "i18next";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { VideoPlayer, type PlayableVideo } from "~/components/media/video-player";

const i18n = i18next.createInstance();
void i18n.init({ lng: "en", resources: { en: { translation: {} } }, interpolation: { escapeValue: false } });

declare global {
  interface Window {
    mountPlayer(video: PlayableVideo): void;
  }
}

window.mountPlayer = (video) =>
  createRoot(document.getElementById("root")!).render(
    <I18nextProvider i18n={i18n}>
      <VideoPlayer video={video} style={{ display: "block", width: "100%" }} />
    </I18nextProvider>,
  );
