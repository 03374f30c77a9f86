import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserForThisFile, createAccount, hydrated, newPage, signedInPage } from "./support";

const AXE_SOURCE = readFileSync("node_modules/axe-core/axe.min.js", "utf8");
const browser = browserForThisFile();

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core (WCAG 2.x A and AA rules) in the page and returns the serious and critical findings. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    return (await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }))
      .violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

describe("accessibility (axe-core)", () => {
  for (const path of ["/", "/login", "/signup"]) {
    for (const colorScheme of ["light", "dark"] as const) {
      it(`${path} in ${colorScheme} has no serious or critical violation`, async () => {
        const { page, context } = await newPage(browser());
        await page.emulateMedia({ colorScheme });
        await page.goto(path);
        await hydrated(page);
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      });
    }
  }

  for (const [label, viewport] of [
    ["wide", { width: 1440, height: 900 }],
    ["in between", { width: 1100, height: 900 }],
    ["phone", { width: 375, height: 812 }],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      it(`/home (${label}, ${colorScheme}) has no serious or critical violation, with the menu open too`, async () => {
        const account = await createAccount();
        const { page, context } = await signedInPage(browser(), account, viewport, { colorScheme });
        await page.goto("/home");
        await hydrated(page);
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByRole("button", { name: "Account menu" }).filter({ visible: true }).click();
        await page.getByRole("menu").waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      });
    }
  }

  it("the whole shell is keyboard usable: skip link, then the sidebar in order, with a visible focus ring", async () => {
    const account = await createAccount();
    const { page, context } = await signedInPage(browser(), account, { width: 1440, height: 900 });
    await page.goto("/home");
    await hydrated(page);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { nav: el.dataset.nav, outline: getComputedStyle(el).outlineStyle };
    });
    expect(focused).toEqual({ nav: "home", outline: "solid" });
    await page.keyboard.press("Enter");
    await page.waitForURL("**/home");
    await context.close();
  });
});
