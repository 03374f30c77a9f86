import { useTranslation } from "react-i18next";

/**
 * The name of a list on screen: a custom list's own, or what a system list's ref (shared/contracts/fan-lists.ts)
 * means, in the reader's language. Read from the ref's text: the contract's parser brings zod with it.
 */
export function useListName(): (ref: string, name: string | null) => string {
  const { t } = useTranslation();
  return (ref, name) => {
    if (name !== null) return name;
    const [kind, part, id] = ref.split(":");
    switch (kind) {
      case "subscribers":
        return t("Subscribers");
      case "expired":
        return t("Expired subscribers");
      case "followers":
        return t("Followers who never subscribed");
      case "tippers":
        return t("Tippers");
      case "trial":
        return t("On a free trial");
      case "top-spenders":
        return part === "all"
          ? t("Top spenders of all time")
          : t("Top spenders of the last {{count}} days", { count: Number(part) });
      case "buyers":
        if (part === "post") return t("Buyers of post {{id}}", { id });
        if (part === "message") return t("Buyers of message {{id}}", { id });
        return t("Buyers of mass message {{id}}", { id });
      default:
        return ref;
    }
  };
}
