// The couyon de Malmedy at the shared table (see the interface in docs/web.md): five cards
// around a four-card blind, the player left of the dealer names one of four suits, the
// queen of clubs is always a trump, the queen of spades becomes one with a "mite" (then
// contra and recontra), thirteen chalk lines.

import { RANK_ORDER, byHandOrder, cardBack, suitSymbol } from "../cards.js";
import { parseCard, t } from "../i18n.js";
import { pace } from "../settings.js";
import { announce, clone, commonEvent, controlButton, nextSeat, seatName, teamOf, trumpBadge } from "../table/shared.js";

const SUITS = ["C", "D", "H", "S"];

const $ = (id) => document.getElementById(id);
const words = () => t().malmedy;

/** Whether a card is a trump now: the queen of clubs always, the queen of spades after a mite, the named suit. */
function isTrump(code, deal) {
  if (code === "QC" || (code === "QS" && deal.mite)) return true;
  return deal.trump !== null && parseCard(code).suit === deal.trump;
}

/** Trump strength, strongest first: ace, mite queen of spades, queen of clubs, then king down to nine. */
function trumpRank(code, deal) {
  if (code === "QS" && deal.mite) return 1;
  if (code === "QC") return 2;
  const { rank } = parseCard(code);
  return rank === "A" ? 0 : 3 + RANK_ORDER[rank];
}

const asking = (model) => model.phase === "playing" && model.deal.asking;

function suitName(suit) {
  return `${suitSymbol(suit)} ${t().suit[suit]}`;
}

/** A hint under a button, which the button names as its description. */
function help(id) {
  const element = document.createElement("p");
  element.className = "control-help";
  element.id = id;
  return element;
}

export default {
  id: "malmedy",
  startLines: 13,

  /** Trumps first, strongest first; then the other cards as in every hand. */
  sortHand(hand, model) {
    const deal = model.deal;
    return [...hand].sort((a, b) => {
      const [x, y] = [isTrump(a, deal), isTrump(b, deal)];
      if (x && y) return trumpRank(a, deal) - trumpRank(b, deal);
      return Number(y) - Number(x) || byHandOrder(a, b);
    });
  },

  isTrump: (code, model) => isTrump(code, model.deal),

  playsCards: (model) => model.phase === "playing" && !model.deal.asking,

  turn: (model) => (model.phase === "choosing" ? "trump" : asking(model) ? "answer" : "play"),

  mountControls(box, send) {
    const trumps = document.createElement("div");
    trumps.className = "trump-buttons";
    trumps.id = "trump-buttons";
    trumps.setAttribute("role", "group");
    trumps.hidden = true;
    for (const suit of SUITS) {
      const choice = controlButton(`trump-${suit}`, false);
      choice.classList.add("suit-button", `suit-${suit}`);
      choice.addEventListener("click", () => send(`trump-${suit}`));
      trumps.append(choice);
    }

    const mite = document.createElement("div");
    mite.className = "call-buttons";
    mite.id = "mite-row";
    mite.hidden = true;
    const miteButton = controlButton("mite-button", true);
    miteButton.setAttribute("aria-describedby", "mite-help");
    miteButton.addEventListener("click", () => send("mite"));
    mite.append(miteButton, help("mite-help"));

    const answers = document.createElement("div");
    answers.className = "call-buttons";
    answers.id = "answer-row";
    answers.hidden = true;
    const raise = controlButton("raise-button", true);
    raise.setAttribute("aria-describedby", "raise-help");
    // The button says contra or recontra, whichever is asked; the move is its dataset.move.
    raise.addEventListener("click", () => send(raise.dataset.move));
    const pass = controlButton("answer-pass-button", false);
    pass.addEventListener("click", () => send("pass"));
    const pair = document.createElement("div");
    pair.className = "bid-buttons";
    pair.append(raise, pass);
    answers.append(pair, help("raise-help"));

    box.append(trumps, mite, answers);
  },

  renderControls(model, acting) {
    const text = words();
    const choosing = acting && model.phase === "choosing";
    const asked = acting ? asking(model) : null;
    const miteOffered = acting && !asked && model.phase === "playing" && model.legal.includes("mite");

    $("trump-buttons").hidden = !choosing;
    $("trump-buttons").setAttribute("aria-label", text.trumpGroup);
    for (const suit of SUITS) {
      const choice = $(`trump-${suit}`);
      const symbol = document.createElement("span");
      symbol.className = "suit-symbol";
      symbol.setAttribute("aria-hidden", "true");
      symbol.textContent = suitSymbol(suit);
      choice.replaceChildren(`${text.suitTitle[suit]} `, symbol);
      // Named "Cœur ♥" without the text-presentation selector the drawn symbol carries.
      choice.setAttribute("aria-label", `${text.suitTitle[suit]} ${suitSymbol(suit).replace("\uFE0E", "")}`);
      choice.disabled = !model.legal.includes(`trump-${suit}`);
    }

    $("mite-row").hidden = !miteOffered;
    $("mite-button").textContent = text.mite;
    $("mite-help").textContent = text.miteHelp;

    $("answer-row").hidden = !asked;
    const raise = $("raise-button");
    const move = asked === "recontra" ? "recontra" : "contra";
    raise.dataset.move = move;
    raise.textContent = text[move];
    raise.disabled = !model.legal.includes(move);
    $("raise-help").textContent = move === "recontra" ? text.recontraHelp : text.contraHelp;
    $("answer-pass-button").textContent = text.pass;
    $("answer-pass-button").disabled = !model.legal.includes("pass");
  },

  focusControls(model) {
    if (model.phase === "choosing") return SUITS.map((suit) => $(`trump-${suit}`));
    if (asking(model)) return [$("raise-button"), $("answer-pass-button")];
    return [];
  },

  prompt(model) {
    const text = words();
    const deal = model.deal;
    if (model.phase === "choosing") return text.promptTrump;
    if (deal.asking === "contra") return text.promptContra(seatName(deal.mite));
    if (deal.asking === "recontra") return text.promptRecontra(seatName(nextSeat(deal.mite)));
    return model.legal.includes("mite") ? text.promptMite : t().promptPlay;
  },

  yourTurn(model) {
    const text = words();
    if (model.phase === "choosing") return text.yourTurnTrump;
    if (model.deal.asking === "contra") return text.yourTurnContra;
    if (model.deal.asking === "recontra") return text.yourTurnRecontra;
    return model.legal.includes("mite") ? text.yourTurnMite : t().sayYourTurnPlay;
  },

  seatChips(seat, model) {
    const text = words();
    const deal = model.deal;
    const chips = [];
    if (deal.chooser === seat) {
      const chosen = deal.trump ? ` ${suitSymbol(deal.trump)}` : "";
      chips.push(["chip-taker", `${text.chooserChip(Boolean(deal.trump))}${chosen}`]);
    }
    if (deal.mite === seat) chips.push(["chip-call", text.miteChip]);
    if (deal.contra >= 1 && deal.mite && nextSeat(deal.mite) === seat) chips.push(["chip-call", text.contraChip]);
    if (deal.contra === 2 && deal.mite === seat) chips.push(["chip-call", text.recontraChip]);
    return chips;
  },

  /** What a seat just said: kept while the events are shown, else what the view still asks about. */
  seatBubble(seat, model) {
    const text = words();
    const said = model.said && model.said[seat];
    if (said) {
      const spoken = { mite: text.saidMite, contra: text.saidContra, recontra: text.saidRecontra, pass: text.saidPass };
      return { className: said === "pass" ? "bubble-pass" : "bubble-take", text: spoken[said] };
    }
    const deal = model.deal;
    if (deal.asking === "contra" && deal.mite === seat) return { className: "bubble-take", text: text.saidMite };
    if (deal.asking === "recontra" && deal.mite && nextSeat(deal.mite) === seat) {
      return { className: "bubble-take", text: text.saidContra };
    }
    return null;
  },

  /** The blind, face down all deal long, and the trump once it is named. */
  renderCentre(box, model) {
    const text = words();
    const deal = model.deal;
    box.replaceChildren();
    const blind = document.createElement("div");
    blind.className = "blind";
    blind.setAttribute("role", "img");
    blind.setAttribute("aria-label", text.blindLabel);
    for (let i = 0; i < deal.blind; i += 1) blind.append(cardBack("small"));
    const caption = document.createElement("span");
    caption.className = "blind-caption";
    caption.setAttribute("aria-hidden", "true");
    caption.textContent = text.blindCaption;
    blind.append(caption);
    box.append(blind);
    if (model.phase === "choosing") {
      const waiting = document.createElement("p");
      waiting.className = "proposal-caption";
      waiting.textContent = text.choosing(seatName(deal.chooser), deal.chooser === "S");
      box.append(waiting);
    } else if (deal.trump) {
      box.append(trumpBadge(deal.trump));
    }
  },

  chalkNote: () => null,

  facts(model) {
    const text = words();
    const all = t();
    const deal = model.deal;
    const said = [text.callsMite(seatName(deal.mite)), text.contraChip, text.recontraChip].slice(0, 1 + deal.contra);
    const calls = deal.mite ? said.join(", ") : text.noCalls;
    const stake = 1 + (deal.mite ? 1 : 0) + deal.contra;
    return [
      [all.factDeal, String(deal.number)],
      [all.factDealer, seatName(deal.dealer)],
      [all.factTrump, deal.trump ? suitName(deal.trump) : all.noTrumpYet],
      [text.factChooser, seatName(deal.chooser)],
      [text.factCalls, calls],
      [text.factStake, text.stake(stake)],
      [all.factPoints, `${all.team.NS} ${deal.points.NS} – ${all.team.WE} ${deal.points.WE}`],
      [text.factTricks, `${all.team.NS} ${deal.trick_counts.NS} – ${all.team.WE} ${deal.trick_counts.WE}`],
    ];
  },

  applyEvent(model, event, finalView) {
    const text = words();
    const deal = model.deal;
    switch (event.type) {
      case "trump":
        deal.trump = event.suit;
        model.phase = "playing";
        model.hand_sizes = { S: 5, W: 5, N: 5, E: 5 };
        // South now holds his five cards: the view of this deal shows them (South has not played yet).
        if (finalView.deal.number === deal.number && finalView.phase !== "choosing") model.hand = [...finalView.hand];
        deal.trick = { leader: deal.chooser, cards: [] };
        model.to_move = deal.chooser;
        announce(text.sayTrump(seatName(event.seat), t().suit[event.suit], event.seat === "S"));
        return { pause: event.seat === "S" ? 0 : pace().bid };
      case "mite":
        deal.mite = event.seat;
        deal.asking = "contra";
        model.said = { [event.seat]: "mite" };
        model.to_move = nextSeat(event.seat);
        announce(text.sayMite(seatName(event.seat), event.seat === "S"));
        return { pause: event.seat === "S" ? 0 : pace().bid };
      case "answer":
        if (event.answer === "contra") deal.contra = 1;
        if (event.answer === "recontra") deal.contra = 2;
        deal.asking = event.answer === "contra" ? "recontra" : null;
        model.said = { ...model.said, [event.seat]: event.answer };
        // The mite's caller answers a contra, or plays the card he called it with.
        model.to_move = deal.mite;
        announce(text.sayAnswer(seatName(event.seat), event.answer, event.seat === "S"));
        return { pause: event.seat === "S" ? 0 : pace().bid };
      case "deal_start": {
        const shown = finalView.deal.number === event.number;
        model.deal = {
          number: event.number,
          dealer: event.dealer,
          chooser: event.chooser,
          trump: null,
          mite: null,
          contra: 0,
          asking: null,
          tricks: [],
          trick: { leader: event.chooser, cards: [] },
          points: { NS: 0, WE: 0 },
          trick_counts: { NS: 0, WE: 0 },
          blind: 4,
        };
        model.said = null;
        model.phase = "choosing";
        model.hand = shown ? [...finalView.hand] : [];
        model.hand_sizes = { S: 3, W: 3, N: 3, E: 3 };
        model.to_move = event.chooser;
        announce(
          text.sayDealStart(event.number, seatName(event.dealer), seatName(event.chooser), event.chooser === "S"),
        );
        return { pause: pace().bid };
      }
      case "card":
        model.said = null;
        return commonEvent(model, event);
      case "trick": {
        const effect = commonEvent(model, event);
        if (effect.trickDone) deal.trick_counts[teamOf(effect.trickDone)] += 1;
        return effect;
      }
      default:
        return commonEvent(model, event);
    }
  },

  /** The view as it stood when the deal was dealt, for animating the bots' first moves. */
  rewound(view) {
    const model = clone(view);
    const deal = model.deal;
    deal.trump = null;
    deal.mite = null;
    deal.contra = 0;
    deal.asking = null;
    deal.tricks = [];
    deal.trick = { leader: deal.chooser, cards: [] };
    deal.points = { NS: 0, WE: 0 };
    deal.trick_counts = { NS: 0, WE: 0 };
    model.said = null;
    model.phase = "choosing";
    model.to_move = deal.chooser;
    model.hand_sizes = { S: 3, W: 3, N: 3, E: 3 };
    model.legal = [];
    return model;
  },

  dealSummary(entry) {
    const text = words();
    const chooser = seatName(entry.chooser);
    const suit = t().suit[entry.trump];
    const outcome = entry.outcome === "made" ? text.made(chooser, suit) : text.failed(chooser, suit);
    const details = [text.tricksLine(entry.tricks.NS, entry.tricks.WE)];
    if (entry.capot) details.push(text.capot(entry.capot));
    if (entry.mite) details.push(text.miteSaid(seatName(entry.mite), entry.contra));
    return { outcome, details };
  },
};
