import type { Translate } from "../i18n";

/** One Intl.DisplayNames per language (a few: the app's languages), or null where the runtime has none. */
const regionNames = new Map<string, Intl.DisplayNames | null>();

function countryName(country: string, language: string): string {
  let names = regionNames.get(language);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([language], { type: "region", fallback: "code" });
    } catch {
      names = null;
    }
    regionNames.set(language, names);
  }
  try {
    return names?.of(country) ?? country;
  } catch {
    return country;
  }
}

/**
 * Where a session signed in, as approximate as the request's country (and a US state's code) tells: "Germany",
 * "CA, United States", in the reader's language; the code itself where the runtime cannot name it.
 */
export function placeName(country: string, region: string | null, language: string, t: Translate): string {
  if (country === "XX") return t("Unknown place");
  const name = countryName(country, language);
  return region ? t("{{region}}, {{country}}", { region, country: name }) : name;
}
