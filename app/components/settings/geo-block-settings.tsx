import { useLoaderData } from "@remix-run/react";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { COUNTRY_CODES, US_STATES } from "@shared/contracts/geo-block-places";
import type { GeoBlocks } from "@shared/contracts/geo-blocks";
import { FormNotice, Notice } from "~/components/forms";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

/** The settings loader's field for this section: null unless the viewer is a creator on the privacy page. */
interface GeoBlockingData {
  geoBlocking: GeoBlocks | null;
}

interface Place {
  code: string;
  name: string;
  /** What a search matches: the name and the code, lower case, without accents. */
  key: string;
}

const MATCHES_SHOWN = 12;

const searchable = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Every place a creator may choose, named in the reader's language (countries) and sorted as they sort. */
function usePlaces(language: string): Place[] {
  return useMemo(() => {
    const regions = new Intl.DisplayNames([language], { type: "region", fallback: "code" });
    const us = regions.of("US") ?? "US";
    const places = [
      ...COUNTRY_CODES.map((code) => ({ code, name: regions.of(code) ?? code })),
      ...Object.entries(US_STATES).map(([state, name]) => ({ code: `US-${state}`, name: `${name}, ${us}` })),
    ];
    const collator = new Intl.Collator(language);
    return places
      .map((place) => ({ ...place, key: searchable(`${place.name} ${place.code}`) }))
      .sort((a, b) => collator.compare(a.name, b.name));
  }, [language]);
}

/**
 * Settings → Privacy and data → Geo-blocking, for creators: the countries and US states where their profile,
 * posts, media, stories and live streams do not exist. A search finds places to add; chosen ones are chips to
 * remove; Save sends the whole set (intent "geo-blocking-save").
 */
export function GeoBlockSettings() {
  const { geoBlocking } = useLoaderData<GeoBlockingData>();
  if (!geoBlocking) return null;
  return <GeoBlockForm saved={geoBlocking} />;
}

function GeoBlockForm({ saved }: { saved: GeoBlocks }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const places = usePlaces(i18n.language);
  const nameOf = useMemo(() => new Map(places.map((place) => [place.code, place.name])), [places]);
  const { fetcher, container, result } = useFormFetcher();
  const [chosen, setChosen] = useState<string[]>(saved.places);
  const [query, setQuery] = useState("");
  const wanted = searchable(query.trim());
  const matches = wanted
    ? places.filter((place) => !chosen.includes(place.code) && place.key.includes(wanted)).slice(0, MATCHES_SHOWN)
    : [];
  const hereChosen = saved.here.filter((place) => chosen.includes(place));
  const choose = (code: string) => {
    setChosen((current) => [...current, code].sort());
    setQuery("");
  };
  return (
    <section aria-labelledby={`${id}-title`} className="max-w-lg space-y-3" ref={container}>
      <h3 id={`${id}-title`} className="font-semibold">
        {t("Geo-blocking")}
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {t(
          "Choose countries and US states where your profile, posts, media, stories and live streams do not exist: visitors there, your subscribers included, find nothing.",
        )}
      </p>
      <FormNotice result={result} saved={t("Your geo-blocking has been saved.")} />
      {hereChosen.length > 0 ? (
        <Notice tone="info">
          {t("You are in {{place}} now: people here no longer find your profile. You still see your own content.", {
            place: hereChosen.map((code) => nameOf.get(code) ?? code).join(", "),
          })}
        </Notice>
      ) : null}
      <div>
        <label htmlFor={`${id}-search`} className="mb-1 block text-sm font-medium">
          {t("Find a country or US state")}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          className="input"
          autoComplete="off"
          value={query}
          aria-controls={`${id}-matches`}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              if (matches[0]) choose(matches[0].code);
            }
          }}
        />
        <ul id={`${id}-matches`} aria-label={t("Places found")} className="mt-1 space-y-1">
          {matches.map((place) => (
            <li key={place.code}>
              <button
                type="button"
                className="w-full rounded-lg px-3 py-2 text-start hover:bg-slate-100 dark:hover:bg-slate-800"
                onClick={() => choose(place.code)}
              >
                {t("Add {{place}}", { place: place.name })}
              </button>
            </li>
          ))}
        </ul>
        {wanted && matches.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("No country or state by that name.")}</p>
        ) : null}
      </div>
      <div>
        <h4 id={`${id}-chosen`} className="mb-1 text-sm font-medium">
          {t("Blocked places")}
        </h4>
        {chosen.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("None: your content exists everywhere.")}</p>
        ) : (
          <ul aria-labelledby={`${id}-chosen`} className="flex flex-wrap gap-2">
            {chosen.map((code) => (
              <li
                key={code}
                className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pe-1 ps-3 text-sm dark:bg-slate-800"
              >
                <span>{nameOf.get(code) ?? code}</span>
                <button
                  type="button"
                  className="rounded-full px-2 hover:bg-slate-200 dark:hover:bg-slate-700"
                  aria-label={t("Remove {{place}}", { place: nameOf.get(code) ?? code })}
                  onClick={() => setChosen((current) => current.filter((place) => place !== code))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <IntentForm fetcher={fetcher} intent="geo-blocking-save" fields={{ places: chosen.join(",") }}>
        <button type="submit" className="btn-primary w-auto" disabled={fetcher.state !== "idle"}>
          {t("Save")}
        </button>
      </IntentForm>
    </section>
  );
}
