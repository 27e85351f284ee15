// A date and time field in the page's language (the tournament form's opening and closing): the browser's own
// datetime-local widget writes dates in the browser's locale, not the page's. A read-only text area says the
// chosen moment ("lundi 7 décembre 2026, 18:00"), a button opens a month's grid in a modal dialog (the WAI-ARIA
// date picker dialog pattern: arrows by day and week, Page Up/Down by month, Home/End to the week's ends, Enter or
// Space chooses, Escape closes), and two selects give the hour and the minute. Month and day names come from Intl
// in the page's language (t().dateFormat).
import { t } from "../i18n.js";
import { el } from "./dom.js";

const sameDay = (a, b) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
const addDays = (date, days) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
/** The same day of the month ``months`` away, or that month's last day when it is shorter. */
const addMonths = (date, months) => {
  const last = new Date(date.getFullYear(), date.getMonth() + months + 1, 0).getDate();
  return new Date(date.getFullYear(), date.getMonth() + months, Math.min(date.getDate(), last));
};
/** Monday first, as in Belgium and Britain: 0 for a Monday, 6 for a Sunday. */
const weekday = (date) => (date.getDay() + 6) % 7;
const two = (n) => String(n).padStart(2, "0");

/**
 * A fieldset named ``label`` holding the moment ``initial`` (a Date, local time, its minutes rounded down to five);
 * ``value()`` is the chosen moment as a Date.
 */
export function datePicker(name, label, initial) {
  const words = t().clubs;
  const format = t().dateFormat;
  const dayText = new Intl.DateTimeFormat(format, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
  const timeText = new Intl.DateTimeFormat(format, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const monthText = new Intl.DateTimeFormat(format, { month: "long", year: "numeric" });
  const shortDay = new Intl.DateTimeFormat(format, { weekday: "short" });
  const longDay = new Intl.DateTimeFormat(format, { weekday: "long" });

  let chosen = new Date(initial.getFullYear(), initial.getMonth(), initial.getDate());
  const legendId = `legend-${name}`;
  // A text area, read-only: "Wednesday, 30 September 2026, 18:00" wraps on a 320 px phone, where one line cuts it.
  const shown = el("textarea", { id: `field-${name}`, rows: 1, readOnly: true, className: "date-shown", "aria-labelledby": legendId });
  const open = el("button", { type: "button", className: "button", "aria-haspopup": "dialog" }, words.chooseDate);
  const hour = el("select", { id: `field-${name}-hour` }, ...Array.from({ length: 24 }, (_, h) => el("option", { value: h }, two(h))));
  const minute = el("select", { id: `field-${name}-minute` }, ...Array.from({ length: 12 }, (_, m) => el("option", { value: m * 5 }, two(m * 5))));
  hour.value = String(initial.getHours());
  minute.value = String(Math.floor(initial.getMinutes() / 5) * 5);
  const value = () => new Date(chosen.getFullYear(), chosen.getMonth(), chosen.getDate(), Number(hour.value), Number(minute.value));
  const say = () => {
    const moment = value();
    shown.value = `${dayText.format(moment)}, ${timeText.format(moment)}`;
  };
  hour.addEventListener("change", say);
  minute.addEventListener("change", say);

  // The dialog: the month's name between its two buttons, the grid of its days, and a way out without choosing.
  const headingId = `month-${name}`;
  const heading = el("h2", { id: headingId, className: "date-month", "aria-live": "polite" });
  const previous = el("button", { type: "button", className: "button small" }, words.previousMonth);
  const next = el("button", { type: "button", className: "button small" }, words.nextMonth);
  const monday = new Date(2026, 0, 5); // A Monday: the header's days follow it.
  const header = el(
    "tr",
    {},
    ...Array.from({ length: 7 }, (_, i) => el("th", { scope: "col", abbr: longDay.format(addDays(monday, i)) }, shortDay.format(addDays(monday, i)))),
  );
  const body = el("tbody");
  const grid = el("table", { role: "grid", className: "date-grid", "aria-labelledby": headingId }, el("thead", {}, header), body);
  const cancel = el("button", { type: "button", className: "button small" }, words.cancelDate);
  const dialog = el(
    "dialog",
    { className: "date-dialog", "aria-labelledby": `${legendId} ${headingId}` },
    el("div", { className: "date-head" }, previous, heading, next),
    grid,
    el("p", { className: "date-help" }, words.dateHelp),
    el("div", { className: "button-row" }, cancel),
  );

  let focused = chosen; // The day the grid's focus stands on (its one cell in the tab order).
  const draw = (focus) => {
    focused = focus;
    heading.textContent = monthText.format(focus);
    const first = new Date(focus.getFullYear(), focus.getMonth(), 1);
    const days = new Date(focus.getFullYear(), focus.getMonth() + 1, 0).getDate();
    const rows = [];
    let row = null;
    for (let slot = 0; slot < Math.ceil((weekday(first) + days) / 7) * 7; slot += 1) {
      if (slot % 7 === 0) rows.push((row = el("tr")));
      const date = addDays(first, slot - weekday(first));
      if (date.getMonth() !== focus.getMonth()) {
        row.append(el("td", {}));
        continue;
      }
      const cell = el(
        "td",
        { tabIndex: sameDay(date, focus) ? 0 : -1, "data-day": date.getDate(), "aria-selected": String(sameDay(date, chosen)) },
        String(date.getDate()),
      );
      if (sameDay(date, new Date())) cell.setAttribute("aria-current", "date");
      row.append(cell);
    }
    body.replaceChildren(...rows);
  };
  const cellOf = (date) => body.querySelector(`td[data-day="${date.getDate()}"]`);
  const move = (date) => {
    if (date.getMonth() !== focused.getMonth() || date.getFullYear() !== focused.getFullYear()) draw(date);
    else {
      cellOf(focused).tabIndex = -1;
      focused = date;
      cellOf(focused).tabIndex = 0;
    }
    cellOf(focused).focus();
  };
  // The focus goes back to the button at once: a person's next key (Tab to the hour) must not race the close event.
  const shut = () => {
    dialog.close();
    open.focus();
  };
  const choose = (date) => {
    chosen = date;
    say();
    shut();
  };
  body.addEventListener("click", (event) => {
    const cell = event.target.closest("td[data-day]");
    if (cell) choose(new Date(focused.getFullYear(), focused.getMonth(), Number(cell.dataset.day)));
  });
  body.addEventListener("keydown", (event) => {
    const moves = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      PageUp: () => addMonths(focused, event.shiftKey ? -12 : -1),
      PageDown: () => addMonths(focused, event.shiftKey ? 12 : 1),
      Home: () => addDays(focused, -weekday(focused)),
      End: () => addDays(focused, 6 - weekday(focused)),
    };
    if (event.key in moves) move(moves[event.key]());
    else if (event.key === "Enter") choose(focused);
    else if (event.key !== " ") return;
    event.preventDefault();
  });
  // Space chooses when it is released: released on the button the focus returns to, it would open the grid again.
  body.addEventListener("keyup", (event) => {
    if (event.key === " ") choose(focused);
  });
  previous.addEventListener("click", () => draw(addMonths(focused, -1)));
  next.addEventListener("click", () => draw(addMonths(focused, 1)));
  cancel.addEventListener("click", shut);
  // Escape closes the dialog by itself; its close event comes later, and gives the focus back only if it was lost.
  dialog.addEventListener("close", () => {
    if (document.activeElement === document.body || dialog.contains(document.activeElement)) open.focus();
  });
  shown.addEventListener("click", () => open.click()); // A tap on the moment itself opens its grid too.
  open.addEventListener("click", () => {
    draw(chosen);
    dialog.showModal();
    cellOf(focused).focus();
  });
  say();

  const element = el(
    "fieldset",
    { className: "field date-field" },
    el("legend", { id: legendId }, label),
    el("div", { className: "date-row" }, shown, open),
    el(
      "div",
      { className: "date-time" },
      el("label", { htmlFor: hour.id }, words.hour),
      hour,
      el("label", { htmlFor: minute.id }, words.minute),
      minute,
    ),
    dialog,
  );
  return { element, value };
}
