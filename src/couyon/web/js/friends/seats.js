// A friends' table seen from this person's seat. The solo table draws the human at South (seat 1 at
// coucou); a person sitting elsewhere gets the views and events of his own seat, so this turns their
// seats round before the table sees them: his seat becomes South (or 1), the others keep their order
// round the table, and at couyon and Malmedy the two camps swap names when the turn is odd (his camp
// is always "us"). The moves a page sends name no seat, so nothing is turned back on the way out.
// The review of a table's game (js/review.js) is turned the same way.
//
// Which fields hold seats is the games' JSON (docs/api.md): a seat as a value (`seat`, `to_move`,
// `dealer`…), a list of seats (`seats`, `order`…), a seat as a key (`hand_sizes`, `totals`, coucou's
// `tokens`…), and a seat in front of a move (`"E:garde"`, coucou's `"4:keep"`).

const SEAT_VALUES = new Set([
  "seat",
  "to_move",
  "dealer",
  "leader",
  "winner",
  "taker",
  "partner",
  "chooser",
  "mite",
  "capot",
  "with",
]);
const SEAT_LISTS = new Set(["seats", "order", "losers", "eliminated", "kings_shown"]);
const PREFIXED_LISTS = new Set(["bids", "actions"]);
const TEAMS = { NS: "WE", WE: "NS" };
const CARD_SEATS = ["S", "W", "N", "E"];

/**
 * The turning of one seat's answers: ``seats`` in turn order (couyon's four, tarot's view.seats, coucou's
 * 1…n as numbers), ``mine`` the person's seat. ``toShown`` and ``toReal`` map one seat each way.
 */
export function turning(seats, mine) {
  const count = seats.length;
  const shift = Math.max(0, seats.indexOf(mine));
  const numeric = typeof seats[0] === "number";
  const shown = new Map(seats.map((seat, index) => [String(seat), seats[(index - shift + count) % count]]));
  const real = new Map(seats.map((seat, index) => [String(seat), seats[(index + shift) % count]]));
  // Two camps (couyon, Malmedy): an odd turn puts the other camp at North and South.
  const swapTeams = count === 4 && !numeric && shift % 2 === 1;
  const seat = (value) => (shown.has(String(value)) && (numeric ? typeof value === "number" : true) ? shown.get(String(value)) : value);
  const team = (value) => (swapTeams && value in TEAMS ? TEAMS[value] : value);
  const key = (name) => (shown.has(name) ? String(shown.get(name)) : swapTeams && name in TEAMS ? TEAMS[name] : name);
  const prefixed = (text) => {
    if (typeof text !== "string") return text;
    const at = text.indexOf(":");
    if (at < 0 || !shown.has(text.slice(0, at))) return text;
    return `${shown.get(text.slice(0, at))}${text.slice(at)}`;
  };

  function walk(value, name) {
    if (Array.isArray(value)) {
      if (SEAT_LISTS.has(name)) return value.map((item) => (typeof item === "object" ? walk(item, null) : seat(item)));
      if (PREFIXED_LISTS.has(name)) return value.map((item) => (typeof item === "object" ? walk(item, null) : prefixed(item)));
      return value.map((item) => walk(item, null));
    }
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([field, inner]) => [key(field), walk(inner, field)]));
    }
    if (SEAT_VALUES.has(name)) return team(seat(value));
    return value;
  }

  return {
    shift,
    // A table's JSON names coucou's seats as strings ("3"), its views as numbers.
    toShown: (value) => (shown.has(String(value)) ? shown.get(String(value)) : value),
    toReal: (value) => (real.has(String(value)) ? real.get(String(value)) : value),
    answer: (answer) => walk(answer, null),
  };
}

/** The seats of a game in turn order, from its view (tarot, coucou) or couyon's four. */
export function seatOrder(view) {
  if (view && Array.isArray(view.seats)) return view.seats;
  if (view && typeof view.players === "number" && typeof view.seat === "number") {
    return Array.from({ length: view.players }, (_, index) => index + 1);
  }
  return CARD_SEATS;
}
