// The chart of bench/runtime.mjs: ms per turn against conversation length, both axes logarithmic,
// one colour per system, solid for the state passed back as the object, dashed with a JSON round
// trip. Plain SVG text, drawn here so the bench needs nothing else.
import { writeFileSync } from "node:fs";

const W = 760;
const H = 440;
const M = { left: 70, right: 190, top: 40, bottom: 50 };
const SYSTEMS = [
  { key: "autograms", label: "autograms-ts", color: "#1f77b4" },
  { key: "xstate", label: "XState 5", color: "#2ca02c" },
  { key: "langgraph", label: "LangGraph.js", color: "#d62728" },
];

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export function drawChart(file, points, series) {
  const values = SYSTEMS.flatMap((s) => series[s.key].flatMap((r) => [r.object, r.json]));
  const yMin = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const [xMin, xMax] = [points[0], points[points.length - 1]];
  const x = (t) =>
    M.left + ((Math.log10(t) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * (W - M.left - M.right);
  const y = (v) =>
    H -
    M.bottom -
    ((Math.log10(v) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * (H - M.top - M.bottom);
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(
    `<text x="${M.left}" y="22" font-size="14" font-weight="bold">Cost of one turn against conversation length (ms, log scales)</text>`,
  );
  for (let v = yMin; v <= yMax * 1.0001; v *= 10) {
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${v >= 1 ? v : v.toPrecision(1)}</text>`);
  }
  for (const t of points) {
    out.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${M.top}" y2="${H - M.bottom}" stroke="#eee"/>`);
    out.push(`<text x="${x(t)}" y="${H - M.bottom + 16}" text-anchor="middle">${t.toLocaleString("en")}</text>`);
  }
  out.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">turn of the conversation</text>`,
  );
  out.push(
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">ms per turn</text>`,
  );
  out.push(
    `<rect x="${M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="none" stroke="#888"/>`,
  );
  SYSTEMS.forEach((s, i) => {
    for (const mode of ["object", "json"]) {
      const path = series[s.key].map((r) => `${x(r.turn).toFixed(1)},${y(r[mode]).toFixed(1)}`).join(" ");
      out.push(
        `<polyline points="${path}" fill="none" stroke="${s.color}" stroke-width="2"${mode === "json" ? ' stroke-dasharray="6 4"' : ""}/>`,
      );
      for (const r of series[s.key])
        out.push(`<circle cx="${x(r.turn).toFixed(1)}" cy="${y(r[mode]).toFixed(1)}" r="2.5" fill="${s.color}"/>`);
    }
    const ly = M.top + 14 + i * 22;
    out.push(
      `<line x1="${W - M.right + 14}" x2="${W - M.right + 44}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"/>`,
    );
    out.push(`<text x="${W - M.right + 50}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  const ly = M.top + 14 + SYSTEMS.length * 22 + 10;
  out.push(
    `<line x1="${W - M.right + 14}" x2="${W - M.right + 44}" y1="${ly}" y2="${ly}" stroke="#444" stroke-width="2"/><text x="${W - M.right + 50}" y="${ly + 4}">state as object</text>`,
  );
  out.push(
    `<line x1="${W - M.right + 14}" x2="${W - M.right + 44}" y1="${ly + 20}" y2="${ly + 20}" stroke="#444" stroke-width="2" stroke-dasharray="6 4"/><text x="${W - M.right + 50}" y="${ly + 24}">with JSON round trip</text>`,
  );
  out.push(`</svg>`);
  writeFileSync(file, out.join("\n") + "\n");
}
