// What the shared table (js/table.js) and every game's module (js/games/<game>.js) both use: the
// table's state, the seats, the live region, the game's buttons, the trump badge and the events
// every trick game has. It imports no game and not the table, so that the games import it and
// the table imports the games without a circle; the table hands it its drawing (setRenderer).

import { suitSymbol } from "../cards.js";
import { cardWithArticle, t } from "../i18n.js";
import { pace, playSound } from "../settings.js";

const $ = (id) => document.getElementById(id);

export const SEATS = ["S", "W", "N", "E"];

/** What the table shows and does now; js/table.js writes it, the games read it. */
export const state = {
  game: null, // the last game answer, without its events
  rules: null, // the table module of that game
  model: null, // what the table shows now: a view, advanced event by event while animating
  busy: false,
  roving: null, // the hand card that holds tabindex 0
  reviewed: 0, // the index, in the deal's tricks, of the trick the trick dialog shows
  droppedCard: null, // the card South dropped on the centre: it lands without flying in
  chalkShown: null, // lines drawn on the slate, to animate erasures
  onGameOver: null,
  // Bumped whenever another game is asked for: an older load or animation that wakes up
  // after it must not draw over the newer game.
  generation: 0,
  starting: null, // the id of the game being started, if any
  hint: null, // the expert's move last told: {game, moveNumber, move}
  hurry: false, // the player asked to see the end of the animation at once
  wakers: new Set(), // the pauses under way, to end them early
  toldSkip: false, // the live region said once how to skip an animation
  // A friends' table (js/friends/table.js): {move, resync, rules, endOfGame}, else null (a game of one's own).
  remote: null,
};

export const nextSeat = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % 4];
export const teamOf = (seat) => (seat === "S" || seat === "N" ? "NS" : "WE");
export const clone = (value) => structuredClone(value);
/** The seats of the table a model shows, in turn order: the view's own, else couyon's four. */
export const seatsOf = (model) => (model && model.seats) || SEATS;
const following = (model, seat) => {
  const seats = seatsOf(model);
  return seats[(seats.indexOf(seat) + 1) % seats.length];
};

export function seatName(seat) {
  return state.rules && state.rules.seatName ? state.rules.seatName(seat) : t().seat[seat];
}

/** South's own name where the table lists the players ("Sud (toi)"; at a friends' table, his name). */
export function seatYou() {
  return state.rules && state.rules.seatYou ? state.rules.seatYou() : t().seatYou;
}

export function currentGame() {
  return state.game;
}

export function announce(text) {
  const region = $("announcer");
  const line = document.createElement("p");
  line.textContent = text;
  region.append(line);
  // Keep the region short: screen readers speak additions, old lines are noise.
  while (region.childElementCount > 8) region.firstElementChild.remove();
}

/** A button of a game's controls; with ``i18nKey`` its words follow the language by themselves. */
export function controlButton(id, primary, i18nKey = null) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = primary ? "button primary" : "button";
  element.id = id;
  if (i18nKey) {
    element.dataset.i18n = i18nKey;
    element.textContent = t()[i18nKey];
  }
  return element;
}

/** The trump suit, shown in the middle once it is known. */
export function trumpBadge(suit) {
  const badge = document.createElement("p");
  badge.className = `trump-badge suit-${suit}`;
  const symbol = document.createElement("span");
  symbol.className = "trump-symbol";
  symbol.setAttribute("aria-hidden", "true");
  symbol.textContent = suitSymbol(suit);
  // A no-break space: the symbol stays with "Atout", so the narrow badge at 320 px takes two lines, not three.
  badge.append(symbol, `\u00a0${t().trumpIs(t().suit[suit])}`);
  return badge;
}

let draw = null;

/** The table's drawing of state.model, which rerender() calls (js/table.js sets it once). */
export function setRenderer(render) {
  draw = render;
}

/** Re-render in the current language (the settings page calls this). */
export function rerender() {
  if (state.model && draw) draw();
}

/**
 * The events every trick game has. Returns what to animate: ``arriving`` (a card to fly in),
 * ``trickDone`` (the trick's winner), ``dealEnd`` (a deal_log entry), ``gameOver``, and ``pause``.
 */
export function commonEvent(model, event) {
  const words = t();
  const deal = model.deal;
  switch (event.type) {
    case "card": {
      if (deal.trick.cards.length === 0) deal.trick.leader = event.seat;
      deal.trick.cards.push({ seat: event.seat, card: event.card });
      model.hand_sizes[event.seat] = Math.max(0, model.hand_sizes[event.seat] - 1);
      if (event.seat === "S") model.hand = model.hand.filter((code) => code !== event.card);
      // A full trick waits for its winner, who leads next: nobody is to play meanwhile.
      model.to_move = deal.trick.cards.length === seatsOf(model).length ? null : following(model, event.seat);
      announce(words.sayCard(seatName(event.seat), cardWithArticle(event.card), event.seat === "S"));
      playSound("card");
      // South's own card only needs to land; a bot's stays a moment so that it can be read.
      const wait = event.seat === "S" ? pace().fly : pace().card;
      return { arriving: { seat: event.seat, dropped: state.droppedCard === event.card }, pause: wait };
    }
    case "trick": {
      // Games that count no points per trick (tarot) send none.
      const points = event.points
        ? Object.values(event.points).reduce((a, b) => a + b, 0) - deal.points.NS - deal.points.WE
        : 0;
      const winner = seatsOf(model).includes(event.winner) ? event.winner : null;
      deal.tricks.push({ leader: deal.trick.leader, cards: event.cards, winner });
      if (event.points) deal.points = { ...event.points };
      if (winner) announce(words.sayTrick(seatName(winner), points, winner === "S"));
      playSound("trick");
      return { trickDone: winner, pause: pace().trick };
    }
    case "deal_end":
      model.to_move = null;
      return { dealEnd: event.deal };
    case "game_over":
      model.phase = "over";
      model.winner = event.winner;
      model.score = event.score;
      model.to_move = null;
      announce(state.rules.sayGameOver ? state.rules.sayGameOver(event) : words.sayGameOver(event.winner === "NS", event.score));
      return { gameOver: event };
    default:
      return { pause: 0 };
  }
}
