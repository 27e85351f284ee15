// What the clubs' modules share: the API's calls (api.js's request: errors as its ApiError) and building elements.
import { t } from "../i18n.js";

export { request as call } from "../api.js";

/** A deal's taker in the page's words: his seat as the table names it (Sud, Ouest…), or nobody. */
export const takerName = (seat) => (seat ? (t().seat[seat] ?? seat) : t().clubs.nobody);

/** An element with its properties (``aria-*`` and ``data-*`` as attributes) and children (strings become text). */
export function el(tag, properties = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (name.startsWith("aria-") || name.startsWith("data-") || name === "role") element.setAttribute(name, value);
    else element[name] = value;
  }
  element.append(...children);
  return element;
}

/** A table with its caption, a header row and one row per ``rows`` entry (cells: strings or elements); a wide one
 * scrolls inside its own region on a phone, reachable by keyboard, as the day's results' tables do. */
export function table(caption, headers, rows) {
  const wrap = el("div", { className: "board-wrap", tabIndex: 0, role: "region", "aria-label": caption });
  wrap.append(grid(caption, headers, rows));
  return wrap;
}

function grid(caption, headers, rows) {
  return el(
    "table",
    { className: "board-table" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ...headers.map((header) => el("th", { scope: "col" }, header)))),
    el(
      "tbody",
      {},
      ...rows.map(([first, ...rest]) =>
        el("tr", {}, el("th", { scope: "row" }, first), ...rest.map((cell) => el("td", {}, cell))),
      ),
    ),
  );
}
