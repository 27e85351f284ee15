// Small SVG charts, each named as an image and drawn beside a table of the same numbers (its text alternative):
// a rating's curve ("Mon niveau", the puzzles' rating) and a puzzle answer's bars. Loaded with the views that use them.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 300;
const HEIGHT = 120;
const PAD = 6;

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** A figure named by its <title> (``label``, of id ``id``). */
function figure(label, id, className, height) {
  const node = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-labelledby": id, class: className });
  const title = svg("title", { id });
  title.textContent = label;
  node.append(title);
  return node;
}

/** A curve of ``values`` scaled to its own numbers; it fills the width (320 px included) and keeps its height. */
export function plot(values, label, id, className = "level-plot") {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low;
  const x = (index) => PAD + (values.length === 1 ? 0 : (index * (WIDTH - 2 * PAD)) / (values.length - 1));
  // A flat curve (one game, or equal numbers) runs through the middle.
  const y = (value) => (span ? HEIGHT - PAD - ((value - low) * (HEIGHT - 2 * PAD)) / span : HEIGHT / 2);
  const node = figure(label, id, className, HEIGHT);
  node.append(svg("line", { x1: PAD, y1: HEIGHT - PAD, x2: WIDTH - PAD, y2: HEIGHT - PAD, stroke: "currentColor", "stroke-width": 1 }));
  const path = values.map((value, index) => `${index ? "L" : "M"}${x(index).toFixed(1)},${y(value).toFixed(1)}`);
  node.append(svg("path", { d: path.join(" "), fill: "none", stroke: "currentColor", "stroke-width": 2.5 }));
  for (const [index, value] of values.entries()) {
    node.append(svg("circle", { cx: x(index).toFixed(1), cy: y(value).toFixed(1), r: 3.5, fill: "currentColor" }));
  }
  return node;
}

/** One horizontal bar per ``[label, share]`` (share from 0 to 1), the label at its left; ``marked`` bars are filled. */
export function bars(rows, label, id, className, marked = () => false) {
  const ROW = 22;
  const LEFT = 130;
  const node = figure(label, id, className, rows.length * ROW + PAD);
  for (const [index, [name, share]] of rows.entries()) {
    const top = PAD + index * ROW;
    const text = svg("text", { x: 0, y: top + 14, fill: "currentColor", "font-size": 12 });
    text.textContent = name;
    node.append(text);
    node.append(svg("rect", { x: LEFT, y: top + 2, width: WIDTH - LEFT - PAD, height: 14, fill: "none", stroke: "currentColor" }));
    const width = Math.max(0, Math.min(1, share)) * (WIDTH - LEFT - PAD);
    const bar = { x: LEFT, y: top + 2, width: width.toFixed(1), height: 14, fill: "currentColor" };
    node.append(svg("rect", marked(index) ? bar : { ...bar, "fill-opacity": 0.45 }));
  }
  return node;
}
