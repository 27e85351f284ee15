// Coucou at the shared table (see the interface in docs/web.md): 5 to 20 players round an
// oval, one card each. In turn each keeps his card or changes it with his right-hand
// neighbour (the next seat number), a king answers "Coucou !", the dealer's left neighbour
// changes with the stock, and at the showdown the lowest rank loses a token.
//
// The table draws itself (renderTable): the seats are placed on an ellipse measured from
// the box they sit in, evenly by arc length, seat 1 at the bottom and the numbers running
// counter-clockwise (ruling 3). On a phone the ellipse is taller than wide, so the seats
// stand in two arcs, left and right, as tall as the number of players needs. An exchange
// flies two cards across (face down, the player's own face up); the moment a king refuses,
// the showdown and each elimination are shown on the table and said in the live region.
// Keep and change are two buttons, and the keys G (or K) and C.
//
// The same module plays as qui court (Méry's variant, rulings 20–24; the view's game is "as-qui-court"): the
// dealer's left neighbour changes with the dealer, the dealer speaks only when he has just been handed an
// ace ("Changer avec le talon"), and a king refusing an exchange is laid face up at its seat for all to see.

import { suitSymbol } from "../cards.js";
import { currentLanguage, formatDay, t } from "../i18n.js";
import { pace } from "../settings.js";
import { announce, clone, controlButton, currentGame, state } from "../table/shared.js";

const HUMAN = 1;
const $ = (id) => document.getElementById(id);
const words = () => t().coucou;

const view = {
  send: null, // the table's send(move), handed to mountControls
  skipping: false, // the player asked to see the end at once
  flown: 0, // the last exchange animation started
  resize: null,
};

// ---------------------------------------------------------------- words

const RANK_VALUE = { A: 1, J: 11, Q: 12, K: 13 };

function rankOf(code) {
  return code.slice(0, -1);
}

function rankValue(rank) {
  return RANK_VALUE[rank] ?? Number(rank);
}

/** A card's spoken name ("sept de cœur", "the seven of hearts"), with or without its article. */
function nameOf(code, article = false) {
  const w = words();
  const rank = rankOf(code);
  const suit = code.slice(-1);
  const name = w.cardName(w.rankName[rank], t().suit[suit]);
  return article ? w.withArticle(rank, name) : name;
}

function seatLabel(seat) {
  // A friends' table names its players (js/friends/table.js); else "Joueur 3".
  const named = state.rules && state.rules.playerName ? state.rules.playerName(seat) : null;
  return named ?? (seat === HUMAN ? words().you : words().player(seat));
}

function listOf(names) {
  const w = words();
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} ${w.and} ${names[names.length - 1]}`;
}

// ---------------------------------------------------------------- cards

function span(className, text = null) {
  const element = document.createElement("span");
  element.className = className;
  if (text !== null) element.textContent = text;
  return element;
}

/** A face-up card the size of the table's cards; its holder names it. */
function bigCard(code) {
  const w = words();
  const rank = rankOf(code);
  const suit = code.slice(-1);
  const letter = w.rankLetter[rank] ?? rank;
  const card = span("card coucou-big");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", nameOf(code));
  card.dataset.card = code;
  const face = span(`card-face suit-${suit} rank-${rank}`);
  face.setAttribute("aria-hidden", "true");
  for (const position of ["top", "bottom"]) {
    const corner = span(`corner corner-${position}`);
    const rankGlyph = span("corner-rank");
    rankGlyph.dataset.glyph = letter;
    const suitGlyph = span("corner-suit");
    suitGlyph.dataset.glyph = suitSymbol(suit);
    corner.append(rankGlyph, suitGlyph);
    face.append(corner);
  }
  const middle = span("card-middle");
  const pip = span(rank === "A" ? "pip pip-ace" : "pip coucou-pip");
  pip.dataset.glyph = ["J", "Q", "K"].includes(rank) ? letter : suitSymbol(suit);
  middle.append(pip);
  face.append(middle);
  card.append(face);
  return card;
}

/** A small card at a seat: face up (rank and suit, large enough to read on a phone) or face down. */
function miniCard(code, label) {
  const card = span(code ? `mini-card suit-${code.slice(-1)}` : "mini-card mini-back");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", label);
  if (code) {
    const letter = words().rankLetter[rankOf(code)] ?? rankOf(code);
    const glyph = span("mini-glyph", `${letter}${suitSymbol(code.slice(-1))}`);
    glyph.setAttribute("aria-hidden", "true");
    card.append(glyph);
  }
  return card;
}

// ---------------------------------------------------------------- the model

/** Whether the table plays as qui court (the view names its game). */
const isAqc = (model) => model?.game === "as-qui-court";
const aqcWords = () => words().aqc;

const inCoup = (model, seat) => Boolean(model.coup) && model.coup.order.includes(seat);
const outPlace = (model, seat) => model.eliminations.find((out) => out.seat === seat)?.place ?? null;
const playersIn = (model) => Object.values(model.tokens).filter((count) => count > 0).length;
const humanOut = (model) => (model.tokens[String(HUMAN)] ?? 0) === 0;

/** The seat that speaks after the ``spoken`` first of the coup, or null once only the dealer is left. */
function speakerAt(coup, spoken) {
  return spoken < coup.order.length - 1 ? coup.order[spoken] : null;
}

/** Pauses: the settings' pace, four times faster once the player is out (ruling 15), none when skipping. */
function pauses() {
  const chosen = pace();
  if (view.skipping) return { bid: 0, card: 0, trick: 0, fly: 0 };
  const model = currentModel;
  if (model && humanOut(model)) {
    return { bid: chosen.bid / 4, card: chosen.card / 4, trick: chosen.trick / 3, fly: chosen.fly / 2 };
  }
  return chosen;
}

let currentModel = null;

function speaks(model, seat, outcome) {
  const coup = model.coup;
  coup.actions.push(`${seat}:${outcome}`);
  model.to_move = speakerAt(coup, coup.actions.length);
  // As qui court: the dealer speaks once his left neighbour has handed him an ace (ruling 22). The page knows
  // it only when the dealer is seat 1 (the exchange showed it his new card); otherwise the next event tells.
  const handed = outcome === "exchange" && coup.actions.length === coup.order.length - 1;
  if (isAqc(model) && handed && coup.dealer === HUMAN && rankOf(coup.card) === "A") model.to_move = HUMAN;
}

/** As qui court: the king ``seat`` laid face up in this coup, or null. */
function shownKing(model, seat) {
  const shown = (model.coup?.kings_shown ?? []).find((king) => king.seat === seat);
  return shown ? shown.card : null;
}

/** Move the cards seat 1 knows with an exchange it is not in (they were seen changing hands). */
function moveKnown(coup, a, b) {
  const known = coup.known;
  const [ka, kb] = [known[a], known[b]];
  delete known[a];
  delete known[b];
  if (ka) known[b] = ka;
  if (kb) known[a] = kb;
}

// ---------------------------------------------------------------- layout of the oval

/**
 * Seat centres on an ellipse, evenly spaced by arc length, seat 1 at the bottom, the numbers running
 * counter-clockwise on screen (ruling 3). Lengths are measured in seat boxes along the larger of the two
 * axes, and the ellipse grows taller until every two neighbours are more than one box apart that way:
 * then no two seats overlap, however many they are. A phone's ellipse starts taller than wide, so its
 * seats stand in two arcs, left and right.
 */
function seatPositions(count, width, box) {
  // The same table is drawn again at every event: its layout is computed once per size.
  const key = `${count}:${width}:${box.w}:${box.h}`;
  if (layouts.has(key)) return layouts.get(key);
  const layout = computeLayout(count, width, box);
  layouts.set(key, layout);
  return layout;
}

const layouts = new Map();

function computeLayout(count, width, box) {
  const margin = 16;
  const rx = Math.max(40, width / 2 - box.w / 2 - margin);
  const apart = (a, b) => Math.max(Math.abs(a.x - b.x) / box.w, Math.abs(a.y - b.y) / box.h);
  const place = (ry) => {
    const cx = width / 2;
    const cy = ry + box.h / 2 + margin;
    const at = (a) => ({ x: cx + rx * Math.sin(a), y: cy + ry * Math.cos(a) });
    const steps = 1440;
    const lengths = [0];
    for (let i = 1; i <= steps; i += 1) {
      lengths.push(lengths[i - 1] + apart(at((2 * Math.PI * (i - 1)) / steps), at((2 * Math.PI * i) / steps)));
    }
    const total = lengths[steps];
    const positions = [];
    let i = 0;
    for (let k = 0; k < count; k += 1) {
      const target = (total * k) / count;
      while (i < steps && lengths[i + 1] < target) i += 1;
      positions.push(at((2 * Math.PI * i) / steps));
    }
    return positions;
  };
  let ry = width < 560 ? Math.max(rx * 1.05, box.h * 1.6) : Math.max(rx * 0.46, box.h * 1.9);
  let positions = place(ry);
  const crowded = () => positions.some((at, k) => apart(at, positions[(k + 1) % count]) < 1.06);
  while (crowded() && ry < 4000) {
    ry *= 1.04;
    positions = place(ry);
  }
  return {
    positions,
    height: 2 * ry + box.h + 2 * margin,
    inner: { width: 2 * (rx - box.w / 2) - 12, height: 2 * (ry - box.h) },
  };
}

// ---------------------------------------------------------------- drawing

function ensureTable() {
  if ($("coucou-table")) return;
  const w = words();
  const section = document.createElement("section");
  section.className = "coucou-table";
  section.id = "coucou-table";
  section.setAttribute("aria-labelledby", "coucou-seats-title");
  const title = document.createElement("h2");
  title.className = "visually-hidden";
  title.id = "coucou-seats-title";
  title.dataset.i18nCoucou = "seatsTitle";
  title.textContent = w.seatsTitle;
  const oval = document.createElement("div");
  oval.className = "coucou-oval";
  oval.id = "coucou-oval";
  const seats = document.createElement("ol");
  seats.className = "coucou-seats";
  seats.id = "coucou-seats";
  const centre = document.createElement("div");
  centre.className = "coucou-centre";
  centre.id = "coucou-centre";
  oval.append(seats, centre);
  section.append(title, oval);

  const side = document.createElement("section");
  side.className = "coucou-side panel";
  side.id = "coucou-side";
  side.setAttribute("aria-labelledby", "coucou-last-title");
  const lastTitle = document.createElement("h2");
  lastTitle.id = "coucou-last-title";
  const last = document.createElement("div");
  last.id = "coucou-last";
  const rules = document.createElement("p");
  const link = document.createElement("a");
  link.id = "coucou-rules-link";
  link.href = "#/rules/coucou";
  rules.append(link);
  side.append(lastTitle, last, rules);

  $("felt").after(section);
  document.querySelector("#view-table .sidebar").append(side);
  if (window.ResizeObserver) {
    let width = 0;
    view.resize = new ResizeObserver((entries) => {
      const now = Math.round(entries[0].contentRect.width);
      if (now !== width && currentModel && $("view-table").dataset.variant === "coucou") {
        width = now;
        drawSeats(currentModel);
      }
    });
    view.resize.observe(oval);
  }
}

function seatBox(model, seat) {
  const w = words();
  const coup = model.coup;
  const item = document.createElement("li");
  item.className = "coucou-seat";
  item.dataset.seat = String(seat);
  const tokens = model.tokens[String(seat)] ?? 0;
  const place = outPlace(model, seat);
  // Once the game is over, the final showdown stays on the table.
  const final = model.phase === "over" ? model.history[model.history.length - 1] : null;
  const showdown = model.showdown ?? (final ? { cards: final.after, losers: final.losers } : null);
  const isWinner = model.winner === seat;
  item.classList.toggle("is-you", seat === HUMAN);
  item.classList.toggle("is-turn", model.phase !== "over" && model.to_move === seat);
  item.classList.toggle("is-dealer", Boolean(coup) && coup.dealer === seat);
  item.classList.toggle("is-out", place !== null && !(showdown && seat in showdown.cards));
  item.classList.toggle("is-winner", isWinner);

  const name = document.createElement("p");
  name.className = "cs-name";
  name.textContent = seatLabel(seat);
  item.append(name);

  const row = document.createElement("div");
  row.className = "cs-row";
  let card = null;
  if (showdown && seat in showdown.cards) {
    const code = showdown.cards[seat];
    const lowest = showdown.losers.includes(seat);
    card = miniCard(code, lowest ? w.lowestCard(nameOf(code)) : nameOf(code));
    if (lowest) card.classList.add("is-lowest");
  } else if (coup && inCoup(model, seat)) {
    const known = seat === HUMAN ? coup.card : coup.known[String(seat)];
    const king = shownKing(model, seat);
    if (king && king === known) {
      // As qui court: a king laid face up for the whole table (ruling 23).
      card = miniCard(king, aqcWords().shownKing(nameOf(king)));
      card.classList.add("is-shown");
    } else if (known) {
      card = miniCard(known, seat === HUMAN ? nameOf(known) : w.knownCard(nameOf(known)));
      if (seat !== HUMAN) card.classList.add("is-known");
    } else {
      card = miniCard(null, w.hiddenCard);
    }
  }
  if (card) {
    card.classList.add("cs-card");
    row.append(card);
  }
  const purse = document.createElement("p");
  purse.className = "cs-tokens";
  const dots = span("dots");
  dots.setAttribute("aria-hidden", "true");
  // Lost tokens stay drawn hollow while they fit (up to five).
  const start = model.starting_tokens;
  dots.textContent = start > 5 ? `● ${tokens}` : "●".repeat(tokens) + "○".repeat(Math.max(0, start - tokens));
  purse.append(dots, span("visually-hidden", w.tokens(tokens)));
  row.append(purse);
  item.append(row);

  const chips = document.createElement("p");
  chips.className = "cs-chips";
  if (isWinner) chips.append(span("chip chip-turn", w.winnerChip));
  else if (place !== null) chips.append(span("chip chip-out", w.outChip(place)));
  if (coup && coup.dealer === seat && model.phase !== "over") chips.append(span("chip chip-dealer", w.dealerChip));
  if (model.phase !== "over" && model.to_move === seat) chips.append(span("chip chip-turn", w.turnChip));
  if (chips.childElementCount) item.append(chips);

  const said = model.said && model.said[seat];
  if (said) {
    const bubble = document.createElement("p");
    bubble.className = `bubble cs-bubble bubble-${said}`;
    bubble.textContent = said === "kingShown" ? aqcWords().saidKing : w.said[said];
    item.append(bubble);
  }
  return item;
}

function drawSeats(model) {
  const oval = $("coucou-oval");
  const list = $("coucou-seats");
  const width = oval.clientWidth || 320;
  const phone = width < 560;
  // The seats' size is fixed by the stylesheet (--seat-w, --seat-h): name, card and tokens, chips.
  const box = phone ? { w: 68, h: 80 } : { w: 96, h: 92 };
  const layout = seatPositions(model.players, width, box);
  oval.style.setProperty("--oval-height", `${Math.round(layout.height)}px`);
  oval.style.setProperty("--seat-w", `${box.w}px`);
  oval.style.setProperty("--seat-h", `${box.h}px`);
  oval.classList.toggle("is-phone", phone);
  const centre = $("coucou-centre");
  centre.style.setProperty("--inner-w", `${Math.max(120, Math.round(layout.inner.width))}px`);
  const items = [];
  for (let seat = 1; seat <= model.players; seat += 1) {
    const item = seatBox(model, seat);
    const { x, y } = layout.positions[seat - 1];
    item.style.setProperty("--x", `${Math.round(x)}px`);
    item.style.setProperty("--y", `${Math.round(y)}px`);
    items.push(item);
  }
  list.replaceChildren(...items);
  list.setAttribute("aria-label", words().seatsLabel(model.players));
}

function drawCentre(model) {
  const w = words();
  const centre = $("coucou-centre");
  centre.replaceChildren();
  const coup = model.coup;
  const head = document.createElement("p");
  head.className = "cc-head";
  if (model.phase === "over") {
    head.textContent = model.winner === HUMAN ? w.youWon : w.winnerIs(seatLabel(model.winner));
  } else if (coup) {
    head.textContent = `${w.coupTitle(coup.number)} · ${w.dealerLine(seatLabel(coup.dealer), coup.dealer === HUMAN)}`;
  }
  centre.append(head);
  if (model.phase !== "over") {
    const stock = document.createElement("div");
    stock.className = "cc-stock";
    const turned = model.stock;
    const pile = turned
      ? miniCard(turned, w.stockTurned(nameOf(turned)))
      : miniCard(null, w.stockHidden);
    pile.classList.add("cc-pile");
    pile.id = "coucou-stock";
    const caption = span("cc-caption", w.stockCaption);
    caption.setAttribute("aria-hidden", "true");
    stock.append(pile, caption);
    centre.append(stock);
  }
  const banner = model.banner;
  if (banner) {
    const line = document.createElement("p");
    line.className = `cc-banner banner-${banner.kind}`;
    line.textContent = banner.text;
    centre.append(line);
  }
  const count = document.createElement("p");
  count.className = "cc-count";
  count.textContent = w.inPlay(playersIn(model), model.players);
  centre.append(count);
}

/** The last finished coup: cards shown at its showdown, lowest first, and who lost. */
function drawLastCoup(model) {
  const w = words();
  $("coucou-last-title").textContent = w.lastCoupTitle;
  $("coucou-rules-link").textContent = isAqc(model) ? aqcWords().rulesLink : w.rulesLink;
  $("coucou-rules-link").href = isAqc(model) ? "#/rules/as-qui-court" : "#/rules/coucou";
  const box = $("coucou-last");
  box.replaceChildren();
  const last = model.history[model.history.length - 1];
  if (!last) {
    const none = document.createElement("p");
    none.textContent = w.lastCoupNone;
    box.append(none);
    return;
  }
  const summary = document.createElement("p");
  summary.textContent = showdownSentence(last.number, last.after, last.losers);
  box.append(summary);
  const list = document.createElement("ul");
  list.className = "coucou-review";
  const order = Object.entries(last.after).sort(([a, x], [b, y]) => rankValue(rankOf(x)) - rankValue(rankOf(y)) || a - b);
  for (const [seat, code] of order) {
    const item = document.createElement("li");
    if (last.losers.includes(Number(seat))) item.className = "is-lowest";
    item.append(miniCard(code, nameOf(code)), span("review-name", seatLabel(Number(seat))));
    list.append(item);
  }
  box.append(list);
  if (last.eliminated.length) {
    const out = document.createElement("p");
    out.textContent = w.outLine(listOf(last.eliminated.map(seatLabel)), last.eliminated.includes(HUMAN));
    box.append(out);
  }
}

function showdownSentence(number, cards, losers) {
  const w = words();
  if (!losers.length) return w.sameRank(number);
  const rank = rankOf(cards[String(losers[0])]);
  const others = losers.filter((seat) => seat !== HUMAN);
  return w.lowestLine(
    number,
    w.rankPhrase(rank, w.rankName[rank]),
    listOf(others.map(seatLabel)),
    others.length,
    losers.includes(HUMAN),
  );
}

/** Two cards cross between the seats of an exchange (or the stock card flies to its taker). */
function flyCards(model) {
  const flight = model.flying;
  if (!flight || flight.id === view.flown) return;
  view.flown = flight.id;
  const duration = pauses().fly;
  if (!duration || !Element.prototype.animate) return;
  const oval = $("coucou-oval");
  const where = (seat) => oval.querySelector(`.coucou-seat[data-seat="${seat}"] .cs-card`);
  const start = flight.from === "stock" ? $("coucou-stock") : where(flight.from);
  const end = where(flight.to);
  if (!start || !end) return;
  const frame = oval.getBoundingClientRect();
  const a = start.getBoundingClientRect();
  const b = end.getBoundingClientRect();
  const legs = [[a, b, flight.faces[0]]];
  if (flight.from !== "stock") legs.push([b, a, flight.faces[1]]);
  for (const [from, to, code] of legs) {
    const ghost = miniCard(code, "");
    ghost.removeAttribute("role");
    ghost.removeAttribute("aria-label");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("cc-ghost");
    ghost.style.setProperty("left", `${from.left - frame.left}px`);
    ghost.style.setProperty("top", `${from.top - frame.top}px`);
    oval.append(ghost);
    const animation = ghost.animate(
      [{ transform: "translate(0, 0)" }, { transform: `translate(${to.left - from.left}px, ${to.top - from.top}px)` }],
      { duration, easing: "cubic-bezier(0.3, 0.7, 0.3, 1)" },
    );
    animation.onfinish = () => ghost.remove();
    animation.oncancel = () => ghost.remove();
  }
}

// ---------------------------------------------------------------- the module

const coucou = {
  id: "coucou",
  startLines: 0,
  human: HUMAN,

  seatName: seatLabel,
  sortHand: () => [],
  isTrump: () => false,
  playsCards: () => false,
  southActs: (model) => model.to_move === HUMAN && model.legal.length > 0,
  turn: () => "decide",

  mountControls(box, send) {
    view.send = send;
    ensureTable();
    const own = document.createElement("div");
    own.className = "coucou-own";
    own.id = "coucou-own";
    const label = document.createElement("p");
    label.className = "coucou-own-label";
    label.id = "coucou-own-label";
    const slot = document.createElement("div");
    slot.id = "coucou-own-card";
    own.append(label, slot);

    const row = document.createElement("div");
    row.className = "bid-buttons";
    row.id = "coucou-buttons";
    row.hidden = true;
    const keep = controlButton("keep-button", true);
    keep.setAttribute("aria-keyshortcuts", "G K");
    const change = controlButton("change-button", false);
    change.setAttribute("aria-keyshortcuts", "C");
    keep.addEventListener("click", () => send("keep"));
    change.addEventListener("click", () => send("change"));
    row.append(keep, change);
    const keys = document.createElement("p");
    keys.className = "control-help";
    keys.id = "coucou-keys";
    keys.hidden = true;
    // As qui court: seat 1 deals, and may have a move if handed an ace.
    const dealerNote = document.createElement("p");
    dealerNote.className = "control-help";
    dealerNote.id = "coucou-dealer-note";
    dealerNote.hidden = true;

    const skip = controlButton("coucou-skip", false);
    skip.hidden = true;
    skip.addEventListener("click", () => {
      view.skipping = true;
      skip.hidden = true;
      announce(words().skipping);
    });
    box.append(own, row, keys, dealerNote, skip);
    if (!view.keys) {
      view.keys = true;
      document.addEventListener("keydown", onShortcut);
    }
  },

  renderControls(model, acting) {
    const w = words();
    currentModel = model;
    const own = model.coup && inCoup(model, HUMAN) ? model.coup.card : null;
    $("coucou-own").hidden = !own;
    $("coucou-own-label").textContent = w.yourCard;
    const slot = $("coucou-own-card");
    if (own && slot.dataset.card !== `${own}:${currentLanguage()}`) {
      slot.replaceChildren(bigCard(own));
      slot.dataset.card = `${own}:${currentLanguage()}`;
    } else if (!own) {
      slot.replaceChildren();
      delete slot.dataset.card;
    }
    const hadFocus = $("coucou-buttons").contains(document.activeElement);
    $("coucou-buttons").hidden = !acting;
    if (hadFocus && !acting) $("table-title").focus(); // the focus stays in the table until South's next turn
    if (acting) $("coucou-seats").querySelector(".is-you")?.scrollIntoView({ block: "nearest" });
    const coup = model.coup;
    const dealing = isAqc(model) && Boolean(coup) && coup.dealer === HUMAN && model.phase !== "over";
    const dealerMove = dealing && acting;
    $("coucou-keys").hidden = !acting;
    $("coucou-keys").textContent = dealerMove ? aqcWords().keysDealer : w.keysHint;
    $("coucou-dealer-note").hidden = !dealing || acting || coup.actions.length >= coup.order.length - 1;
    $("coucou-dealer-note").textContent = aqcWords().dealerNote;
    const keep = $("keep-button");
    const change = $("change-button");
    keep.textContent = w.keep;
    change.textContent = dealerMove ? aqcWords().changeStock : w.change;
    keep.disabled = !model.legal.includes("keep");
    change.disabled = !model.legal.includes("change");
    const skip = $("coucou-skip");
    skip.textContent = w.skip;
    const watching = model.phase !== "over" && humanOut(model) && !view.skipping;
    const wasHidden = skip.hidden;
    skip.hidden = !watching;
    const lost = !document.activeElement?.isConnected || [document.body, $("table-title")].includes(document.activeElement);
    if (watching && wasHidden && lost) {
      skip.focus();
    }
    if (model.phase === "over") view.skipping = false;
  },

  focusControls: (model) => (model.legal.length ? [$("keep-button"), $("change-button")] : []),

  prompt(model) {
    const w = words();
    const coup = model.coup;
    const card = nameOf(coup.card, true);
    const last = coup.position === coup.order.length - 2;
    if (isAqc(model)) {
      if (coup.position === coup.order.length - 1) return aqcWords().promptDealer(card);
      if (last) return aqcWords().promptDealerLeft(card, seatLabel(coup.dealer));
    }
    return last ? w.promptStock(card) : w.promptChange(card, seatLabel(coup.order[coup.position + 1]));
  },

  yourTurn(model) {
    const w = words();
    const coup = model.coup;
    if (isAqc(model)) {
      const dealer = coup.position === coup.order.length - 1;
      return dealer ? aqcWords().dealerTurn(nameOf(coup.card, true)) : aqcWords().yourTurn(nameOf(coup.card, true));
    }
    return w.yourTurn(nameOf(coup.card, true), coup.position === coup.order.length - 2);
  },

  seatChips: () => [],
  seatBubble: () => null,
  renderCentre: () => {},
  chalkNote: () => null,

  renderTable(model) {
    currentModel = model;
    ensureTable();
    drawSeats(model);
    drawCentre(model);
    drawLastCoup(model);
    flyCards(model);
  },

  facts(model) {
    const w = words();
    const game = currentGame();
    const level = game && game.options ? game.options.level : null;
    const facts = [];
    if (model.coup) {
      facts.push([w.factCoup, String(model.coup.number)]);
      facts.push([w.factDealer, seatLabel(model.coup.dealer)]);
    }
    facts.push([w.factPlayers, w.inPlay(playersIn(model), model.players)]);
    facts.push([w.factTokens, w.tokens(model.tokens[String(HUMAN)] ?? 0)]);
    facts.push([w.factDeck, w.deck(model.deck)]);
    if (level) facts.push([w.factLevel, t().levelNames[level] ?? level]);
    return facts;
  },

  applyEvent(model, event) {
    const w = words();
    currentModel = model;
    const coup = model.coup;
    const speed = pauses();
    const you = event.seat === HUMAN;
    const name = event.seat ? seatLabel(event.seat) : "";
    model.legal = [];
    switch (event.type) {
      case "keep":
        speaks(model, event.seat, "keep");
        model.said = { ...model.said, [event.seat]: "keep" };
        model.banner = null;
        announce(w.sayKeep(name, you));
        return { pause: you ? 0 : speed.bid };
      case "exchange": {
        speaks(model, event.seat, "exchange");
        model.said = { ...model.said, [event.seat]: "change" };
        model.banner = null;
        const partner = event.with;
        const cards = event.cards;
        if (cards) {
          const other = you ? partner : event.seat;
          const gave = coup.card;
          coup.card = cards[String(HUMAN)];
          coup.known = { ...coup.known, [other]: cards[String(other)] };
          coup.swaps.push({ partner: other, gave, got: coup.card });
          if (you) announce(w.sayExchangeYou(seatLabel(partner), nameOf(gave, true), nameOf(coup.card, true)));
          else announce(w.sayExchangeToYou(name, nameOf(gave, true), nameOf(coup.card, true)));
        } else {
          moveKnown(coup, event.seat, partner);
          announce(w.sayExchange(name, seatLabel(partner)));
        }
        model.flying = {
          id: (model.flying?.id ?? 0) + 1,
          from: event.seat,
          to: partner,
          // Face down between two others; both faces when seat 1 is one of the two (it sees both cards).
          faces: cards ? [cards[String(partner)], cards[String(event.seat)]] : [null, null],
        };
        return { pause: you ? speed.fly : speed.card };
      }
      case "coucou": {
        speaks(model, event.seat, "coucou");
        model.said = { ...model.said, [event.seat]: "change", [event.with]: "coucou" };
        model.banner = { kind: "coucou", text: w.coucouBanner(seatLabel(event.with), event.with === HUMAN) };
        announce(w.sayCoucou(name, seatLabel(event.with), you, event.with === HUMAN));
        return { pause: speed.trick };
      }
      case "king-shown": {
        // As qui court (ruling 23): the king is laid face up at its seat; the asker keeps his card.
        speaks(model, event.seat, "king-shown");
        const holder = event.with;
        const kingYou = holder === HUMAN;
        coup.kings_shown = [...(coup.kings_shown ?? []), { seat: holder, card: event.king }];
        if (!kingYou) coup.known = { ...coup.known, [holder]: event.king };
        model.said = { ...model.said, [event.seat]: "change", [holder]: "kingShown" };
        const king = nameOf(event.king, true);
        model.banner = { kind: "coucou", text: aqcWords().kingShownBanner(seatLabel(holder), nameOf(event.king), kingYou) };
        announce(aqcWords().sayKingShown(name, seatLabel(holder), king, you, kingYou));
        return { pause: speed.trick };
      }
      case "stock":
      case "stock-king": {
        const taken = event.type === "stock";
        speaks(model, event.seat, event.type);
        model.stock = event.card;
        model.said = { ...model.said, [event.seat]: taken ? "stock" : "stockKing" };
        if (taken && you) coup.card = event.card;
        if (taken && !you) coup.known = { ...coup.known, [event.seat]: event.card };
        model.banner = taken ? null : { kind: "king", text: w.stockKingBanner };
        if (taken) model.flying = { id: (model.flying?.id ?? 0) + 1, from: "stock", to: event.seat, faces: [event.card] };
        announce(taken ? w.sayStock(name, nameOf(event.card, true), you) : w.sayStockKing(name, nameOf(event.card, true), you));
        return { pause: taken ? speed.card : speed.trick };
      }
      case "showdown": {
        model.showdown = { cards: event.cards, losers: event.losers };
        model.tokens = { ...event.tokens };
        model.to_move = null;
        const sentence = showdownSentence(event.number, event.cards, event.losers);
        model.banner = { kind: "showdown", text: sentence };
        model.history = [
          ...model.history,
          {
            number: event.number,
            dealer: coup.dealer,
            order: coup.order,
            actions: coup.actions,
            stock: model.stock,
            after: event.cards,
            losers: event.losers,
            tokens: event.tokens,
            eliminated: [],
          },
        ];
        announce(sentence);
        return { pause: speed.trick * 1.5 };
      }
      case "eliminated": {
        for (const seat of event.seats) model.eliminations.push({ seat, coup: event.coup, place: event.place });
        model.history[model.history.length - 1].eliminated = event.seats;
        const out = event.seats.includes(HUMAN);
        const others = event.seats.filter((seat) => seat !== HUMAN);
        announce(w.sayEliminated(listOf(others.map(seatLabel)), others.length, event.place, out));
        if (out && !view.skipping) announce(w.sayWatch);
        return { pause: speed.trick };
      }
      case "coup_start": {
        const position = event.order.indexOf(HUMAN);
        model.coup = {
          number: event.number,
          dealer: event.dealer,
          order: event.order,
          actions: [],
          position: position < 0 ? null : position,
          card: event.card,
          dealt: event.card,
          swaps: [],
          known: {},
          discards: event.discards,
          ...(isAqc(model) ? { kings_shown: [], dealer_has_move: null } : {}),
        };
        model.showdown = null;
        model.said = {};
        model.stock = null;
        model.banner = null;
        model.to_move = speakerAt(model.coup, 0);
        announce(w.sayCoupStart(event.number, seatLabel(event.dealer), event.dealer === HUMAN, event.card ? nameOf(event.card, true) : null));
        return { pause: speed.bid };
      }
      case "game_over":
        model.phase = "over";
        model.winner = event.winner;
        model.place = event.place;
        model.score = event.score;
        model.to_move = null;
        model.coup = null;
        announce(coucou.sayGameOver(event));
        return { gameOver: event };
      default:
        return { pause: 0 };
    }
  },

  sayGameOver(event) {
    const w = words();
    return event.winner === HUMAN
      ? w.sayWon(event.score)
      : w.sayLost(seatLabel(event.winner), event.place, Object.keys(event.places).length, event.score);
  },

  /** The view as it stood when the first coup was dealt, for animating the bots' first moves. */
  rewound(game) {
    const model = clone(game);
    view.skipping = false;
    model.legal = [];
    model.said = {};
    model.stock = null;
    model.showdown = null;
    model.banner = null;
    const first = model.history[0];
    if (first) {
      // As qui court, the dealer's left neighbour may have changed with him: his dealt card is the one that
      // neighbour held at the showdown (nothing moves it after his exchange).
      const left = first.order[first.order.length - 2];
      const swapped = isAqc(model) && first.actions.includes(`${left}:exchange`);
      const dealt = swapped ? first.after[String(left)] : first.after[String(HUMAN)];
      // Seat 1 dealt the first coup (the only way it can end before seat 1 speaks): nobody changes with the
      // dealer, so his card at the showdown is the one he kept.
      model.coup = {
        number: first.number,
        dealer: first.dealer,
        order: first.order,
        actions: [],
        position: first.order.indexOf(HUMAN),
        card: dealt,
        dealt,
        swaps: [],
        known: {},
        discards: [],
        ...(isAqc(model) ? { kings_shown: [], dealer_has_move: null } : {}),
      };
      model.history = [];
      model.eliminations = [];
      model.tokens = Object.fromEntries(Object.keys(model.tokens).map((seat) => [seat, model.starting_tokens]));
    } else if (model.coup) {
      model.coup.actions = [];
      model.coup.card = model.coup.dealt;
      model.coup.swaps = [];
      model.coup.known = {};
      if (model.coup.kings_shown) model.coup.kings_shown = [];
    }
    model.to_move = model.coup ? speakerAt(model.coup, 0) : null;
    return model;
  },

  dealSummary: () => ({ outcome: "", details: [] }),

  endOfGame(model, game) {
    const w = words();
    const players = model.players;
    const won = model.winner === HUMAN;
    const survived = won ? model.history.length : model.eliminations.find((out) => out.seat === HUMAN)?.coup ?? 0;
    const lines = [
      won ? w.endWon : w.endPlace(model.place, players),
      w.endScore(model.score),
      w.endCoups(survived, model.history.length, won),
    ];
    if (!won) lines.push(w.endWinner(seatLabel(model.winner)));
    const shareText = isAqc(model) ? aqcWords().shareText : w.shareText;
    const share = game.day ? shareText(formatDay(game.day), model.place, players, model.score, survived) : "";
    return { title: won ? w.endWonTitle : w.endTitle(model.place, players), lines, share };
  },
};

export default coucou;

/** G (or K) keeps, C changes, while the table asks for it and no field or dialog has the keys. */
function onShortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  const table = $("view-table");
  if (!table || table.hidden || table.dataset.variant !== "coucou" || table.dataset.turn !== "decide") return;
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
  const key = event.key.toLowerCase();
  const move = key === "g" || key === "k" ? "keep" : key === "c" ? "change" : null;
  if (!move || !view.send) return;
  event.preventDefault();
  view.send(move);
}
