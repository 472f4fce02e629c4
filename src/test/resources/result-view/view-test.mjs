// Drives Debian's headless Chromium (playwright-core, executablePath) through the result view: a host page built on ext-apps'
// AppBridge hands the view a real tool result from our server, and this reports what the view shows (ResultViewIT
// asserts it) and saves screenshots. Arguments: the view's HTML, the tool's arguments (JSON), its result (JSON), and
// the folder for the screenshots.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const [viewPath, argumentsPath, resultPath, out] = process.argv.slice(2);
const view = readFileSync(viewPath, "utf8");
const toolArguments = JSON.parse(readFileSync(argumentsPath, "utf8"));
const toolResult = JSON.parse(readFileSync(resultPath, "utf8"));
const host = readFileSync(new URL("./host.bundle.js", import.meta.url), "utf8");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});
const report = {};
try {
  const page = await browser.newPage({ viewport: { width: 940, height: 900 } });
  const requests = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.setContent("<!DOCTYPE html><html><body style=\"margin:0;background:#0d1117\"></body></html>");
  await page.addScriptTag({ content: host });
  await page.evaluate(([html, args, result]) => window.startHost(html, args, result, "dark"),
      [view, toolArguments, toolResult]);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  await frame.waitForSelector("#header:not([hidden])", { timeout: 10000 });
  await frame.waitForFunction(() => [...document.querySelectorAll("#images img")].every((i) => i.complete));
  const read = () => frame.evaluate(() => ({
    theme: document.documentElement.dataset.theme || "",
    status: document.getElementById("status").textContent,
    time: document.getElementById("time").textContent,
    tool: document.getElementById("tool").textContent,
    code: document.getElementById("code").textContent,
    highlighted: [...document.querySelectorAll("#code span")].map((s) => s.className + ":" + s.textContent),
    stdout: document.getElementById("stdout").textContent,
    stderrShown: !document.getElementById("stderr-section").hidden,
    images: [...document.querySelectorAll("#images img")].map((i) => ({ alt: i.alt, width: i.naturalWidth,
                                                                         height: i.naturalHeight })),
    files: [...document.querySelectorAll("#files .file .name")].map((n) => n.textContent),
    fileImages: document.querySelectorAll("#files img").length,
    tableHeader: [...document.querySelectorAll("#files table th")].map((th) => th.textContent),
    tableFirstColumn: [...document.querySelectorAll("#files table tbody tr")].map((tr) => tr.cells[0].textContent),
    emptyShown: !document.getElementById("empty").hidden,
  }));
  report.shown = await read();
  // Sorting: the second column, by value, then the other way.
  await frame.click("#files table th:nth-child(2)");
  report.sortedUp = (await read()).tableFirstColumn;
  await frame.click("#files table th:nth-child(2)");
  report.sortedDown = (await read()).tableFirstColumn;
  report.hostLog = await page.evaluate(() => window.hostLog);
  report.requests = requests.filter((url) => !url.startsWith("data:") && url !== "about:blank" && url !== "about:srcdoc");
  await page.screenshot({ path: out + "/result-view.png", fullPage: true });

  // With no host at all (the page opened on its own) it stays readable, and says why it is empty.
  const alone = await browser.newPage({ viewport: { width: 700, height: 300 } });
  await alone.setContent(view);
  report.alone = await alone.evaluate(() => ({ empty: document.getElementById("empty").textContent,
                                               emptyShown: !document.getElementById("empty").hidden }));
  await alone.screenshot({ path: out + "/result-view-empty.png" });
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
