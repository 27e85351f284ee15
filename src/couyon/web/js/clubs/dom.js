// What the clubs' modules share: the API's calls (errors as api.js's ApiError) and building elements as text.
import { ApiError } from "../api.js";

/** One API call: its JSON answer, or an ApiError with the server's sentence. */
export async function call(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "network", "network");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data?.error ?? { code: "http", message: response.statusText };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

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
