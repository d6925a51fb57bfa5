/**
 * Pages in a real browser (docs/DESIGN.md section 10): Debian's Chromium driven by puppeteer-core,
 * with axe-core injected for accessibility. `.ci/run` installs Chromium and sets
 * FOLIO_REQUIRE_BROWSER=1, so there a missing browser fails; elsewhere browser tests are skipped
 * with a note, so the test command still passes on a machine with only Node and npm.
 */
import axe from "axe-core";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { startTestFolio, type TestFolio, type TestOptions } from "./helpers.ts";

const CHROMIUM = Deno.env.get("FOLIO_CHROMIUM") ?? "/usr/bin/chromium";

/** True when a browser is here to run page tests. */
export function browserAvailable(): boolean {
  try {
    Deno.statSync(CHROMIUM);
    return true;
  } catch {
    if (Deno.env.get("FOLIO_REQUIRE_BROWSER") === "1") {
      throw new Error(`FOLIO_REQUIRE_BROWSER=1 but there is no browser at ${CHROMIUM}`);
    }
    console.warn(`No browser at ${CHROMIUM}: page tests in a browser are skipped.`);
    return false;
  }
}

let present: boolean | null = null;

/** What a page test is given: a real Folio, a Chromium tab on it (1280×900), and its origin. */
export interface PageTest {
  folio: TestFolio;
  page: Page;
  base: string;
}

/**
 * A test in Chromium against a fresh Folio on a real socket (`options` go to startTestFolio);
 * skipped with a note where there is no browser (`browserAvailable`).
 */
export function browserTest(
  name: string,
  fn: (t: PageTest) => Promise<void>,
  options: TestOptions = {},
): void {
  present ??= browserAvailable();
  Deno.test({
    name,
    ignore: !present,
    // Chromium's pipes and the page server outlive a test's own resources by design.
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      await using folio = await startTestFolio(options);
      await using browser = await launchBrowser();
      const page = await openPage(browser);
      await page.setViewport({ width: 1280, height: 900 });
      await fn({ folio, page, base: folio.url });
    },
  });
}

/** The text of the page as a reader sees it. */
export async function pageText(page: Page): Promise<string> {
  return await page.$eval("body", (b) => (b as HTMLElement).innerText);
}

/** A headless Chromium, closed with `await using`. */
export async function launchBrowser(): Promise<Browser & AsyncDisposable> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespace sandbox; the pages under test are our own.
    // *.localhost names publishers' custom domains in tests; they all live on loopback.
    args: [
      "--no-sandbox",
      "--disable-dev-shm-usage",
      "--disable-gpu",
      "--host-resolver-rules=MAP *.localhost 127.0.0.1",
    ],
  });
  return Object.assign(browser, { [Symbol.asyncDispose]: () => browser.close() });
}

/**
 * A new tab that lets the tests inject axe-core into pages whose CSP forbids inline scripts (the
 * page's own headers are still checked on the response).
 */
export async function openPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await page.setBypassCSP(true);
  // Pages write times in the browser's zone (server/platform/local_time.ts): the same on every
  // machine unless a test chooses another.
  await page.emulateTimezone("UTC");
  return page;
}

/** An axe-core violation as the tests report it. */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page with every rule it enables by default (WCAG and best practice, such as
 * landmark-unique: issue 42) and returns every violation, whatever its impact.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ content: axe.source });
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document);
    // deno-lint-ignore no-explicit-any
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.slice(0, 3).map((n: any) => n.html),
    }));
  }) as Violation[];
}

/**
 * Saves a screenshot when FOLIO_SCREENSHOTS names a directory (to look at pages by eye): the whole
 * page, or with `fullPage: false` what the viewport shows (for pages too long to take in at once).
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  const dir = Deno.env.get("FOLIO_SCREENSHOTS");
  if (!dir) return;
  await Deno.mkdir(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage });
}

/** Saves a screenshot of the element `selector` alone, when FOLIO_SCREENSHOTS names a directory. */
export async function screenshotOf(page: Page, selector: string, name: string): Promise<void> {
  const dir = Deno.env.get("FOLIO_SCREENSHOTS");
  if (!dir) return;
  await Deno.mkdir(dir, { recursive: true });
  const element = await page.$(selector);
  if (!element) throw new Error(`no ${selector} to take a screenshot of`);
  await element.screenshot({ path: `${dir}/${name}.png` });
}

/** Accessibility of the page as it is now (no axe violation of any impact), and its screenshot. */
export async function checkPage(page: Page, shot: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length) throw new Error(`axe on ${shot}: ${JSON.stringify(violations, null, 2)}`);
  await screenshot(page, shot);
}

/** Opens `url`, requires a 200, then checks the page (`checkPage`). */
export async function visitPage(page: Page, url: string, shot: string): Promise<void> {
  const res = await page.goto(url, { waitUntil: "load" });
  if (res?.status() !== 200) throw new Error(`${url} answered ${res?.status()}`);
  await checkPage(page, shot);
}

/**
 * Fills the named fields of the form `selector` (text typed, options selected) and submits it as
 * a person would; resolves to the status of the page it lands on.
 */
export async function submitForm(
  page: Page,
  selector: string,
  values: Record<string, string> = {},
): Promise<number | undefined> {
  for (const [name, value] of Object.entries(values)) {
    const field = await page.$(`${selector} [name="${name}"]`);
    if (!field) throw new Error(`no field ${name} in ${selector}`);
    if (await field.evaluate((el) => el.tagName === "SELECT")) {
      await field.select(value);
      continue;
    }
    await field.evaluate((el) => (el as HTMLInputElement).value = "");
    await field.type(value);
  }
  const [res] = await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.$eval(selector, (form) => (form as HTMLFormElement).requestSubmit()),
  ]);
  return res?.status();
}
