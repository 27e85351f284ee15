// The common couyon at the shared table (see the interface in docs/web.md): four cards
// each, a turned card proposes trump, each player takes or passes, five chalk lines.

import { byHandOrder, cardBack, suitSymbol, tableCard } from "../cards.js";
import { cardName, cardWithArticle, parseCard, t } from "../i18n.js";
import { pace } from "../settings.js";
import { announce, clone, commonEvent, controlButton, nextSeat, seatName, trumpBadge } from "../table/shared.js";

const $ = (id) => document.getElementById(id);

const proposalOf = (deal) => deal.proposals[deal.proposals.length - 1];

/** Who said what about the card turned up now. */
function currentBids(deal) {
  const proposal = proposalOf(deal);
  const bids = {};
  for (const bid of deal.bids) if (bid.proposal === proposal) bids[bid.seat] = bid.take;
  return bids;
}

export default {
  id: "couyon",
  startLines: 5,

  sortHand: (hand) => [...hand].sort(byHandOrder),

  // The couyon hand is not marked: trumps are one suit, shown on the trump badge.
  isTrump: () => false,

  playsCards: (model) => model.phase === "playing",

  turn: (model) => (model.phase === "bidding" ? "bid" : "play"),

  mountControls(box, send) {
    const row = document.createElement("div");
    row.className = "bid-buttons";
    row.id = "bid-buttons";
    row.hidden = true;
    const take = controlButton("take-button", true, "take");
    const pass = controlButton("pass-button", false, "pass");
    take.addEventListener("click", () => send("take"));
    pass.addEventListener("click", () => send("pass"));
    // What each answer commits to, for a screen reader: said with the button, not shown.
    for (const [button, key] of [
      [take, "takeHelp"],
      [pass, "passHelp"],
    ]) {
      const help = document.createElement("p");
      help.id = `${button.id}-help`;
      help.hidden = true;
      help.dataset.i18n = key;
      help.textContent = t()[key];
      button.setAttribute("aria-describedby", help.id);
      row.append(help);
    }
    row.prepend(take, pass);
    box.append(row);
  },

  renderControls(model, acting) {
    $("bid-buttons").hidden = !(acting && model.phase === "bidding");
    $("take-button").disabled = !model.legal.includes("take");
    $("pass-button").disabled = !model.legal.includes("pass");
  },

  focusControls: (model) => (model.phase === "bidding" ? [$("take-button"), $("pass-button")] : []),

  prompt(model) {
    const words = t();
    if (model.phase !== "bidding") return words.promptPlay;
    const proposal = proposalOf(model.deal);
    const suit = words.suit[parseCard(proposal).suit];
    return words.promptBid(suit[0].toUpperCase() + suit.slice(1), cardWithArticle(proposal));
  },

  yourTurn: (model) => (model.phase === "bidding" ? t().sayYourTurnBid : t().sayYourTurnPlay),

  seatChips(seat, model) {
    return model.deal.taker === seat ? [["chip-taker", t().taker]] : [];
  },

  seatBubble(seat, model) {
    const bids = currentBids(model.deal);
    if (model.phase !== "bidding" || !(seat in bids)) return null;
    const words = t();
    return bids[seat]
      ? { className: "bubble-take", text: words.saidTake }
      : { className: "bubble-pass", text: words.saidPass };
  },

  /** The turned card and what is left of the talon while bidding, then the trump badge. */
  renderCentre(box, model) {
    const words = t();
    const deal = model.deal;
    box.replaceChildren();
    const proposal = proposalOf(deal);
    if (model.phase === "bidding" && proposal) {
      const { suit } = parseCard(proposal);
      const talon = document.createElement("div");
      talon.className = "talon";
      const talonLeft = 8 - deal.proposals.length;
      for (let i = 0; i < Math.min(talonLeft, 3); i += 1) talon.append(cardBack("small"));
      const turned = tableCard(proposal, "turned");
      turned.setAttribute("aria-label", words.proposalLabel(cardName(proposal)));
      const caption = document.createElement("p");
      caption.className = "proposal-caption";
      const offered = document.createElement("span");
      offered.className = "proposal-suit";
      offered.textContent = `${words.trumpProposed(`${suitSymbol(suit)} ${words.suit[suit]}`)} · `;
      const count = document.createElement("span");
      count.className = "proposal-count";
      count.textContent = words.proposalCount(deal.proposals.length);
      caption.append(offered, count);
      box.append(talon, turned, caption);
    } else if (deal.trump) {
      box.append(trumpBadge(deal.trump));
    }
  },

  /** "La craie est dans le trou": the deal after a tie counts double. */
  chalkNote(model) {
    if (model.phase === "over" || model.deal.stake <= 1) return null;
    const drawing = document.createElement("span");
    drawing.className = "hole-drawing";
    drawing.setAttribute("aria-hidden", "true");
    drawing.append(document.createElement("span"));
    return [drawing, t().chalkHole];
  },

  facts(model) {
    const words = t();
    const deal = model.deal;
    return [
      [words.factDeal, String(deal.number)],
      [words.factDealer, seatName(deal.dealer)],
      [words.factTrump, deal.trump ? `${suitSymbol(deal.trump)} ${words.suit[deal.trump]}` : words.noTrumpYet],
      [words.factTaker, deal.taker ? seatName(deal.taker) : words.noTakerYet],
      [words.factStake, words.stakeLines(deal.stake)],
      [words.factPoints, `${words.team.NS} ${deal.points.NS} – ${words.team.WE} ${deal.points.WE}`],
    ];
  },

  applyEvent(model, event, finalView) {
    const words = t();
    const deal = model.deal;
    switch (event.type) {
      case "bid": {
        deal.bids.push({ seat: event.seat, proposal: event.proposal, take: event.take });
        const suit = parseCard(event.proposal).suit;
        if (event.take) {
          deal.trump = suit;
          deal.taker = event.seat;
          model.phase = "playing";
          deal.trick = { leader: event.seat, cards: [] };
          model.to_move = event.seat;
        } else {
          model.to_move = nextSeat(event.seat);
        }
        announce(words.sayBid(seatName(event.seat), event.take, words.suit[suit], event.seat === "S"));
        return { pause: event.seat === "S" ? 0 : pace().bid };
      }
      case "proposal":
        deal.proposals.push(event.card);
        model.to_move = nextSeat(deal.dealer);
        announce(words.sayProposal(cardWithArticle(event.card)));
        return { pause: pace().bid };
      case "deal_start": {
        const sameDeal = finalView.deal.number === event.number;
        model.deal = {
          number: event.number,
          dealer: event.dealer,
          stake: sameDeal ? finalView.deal.stake : deal.stake,
          proposals: [event.proposal],
          bids: [],
          trump: null,
          taker: null,
          tricks: [],
          trick: { leader: nextSeat(event.dealer), cards: [] },
          points: { NS: 0, WE: 0 },
        };
        model.phase = "bidding";
        model.hand = sameDeal ? [...finalView.hand] : [];
        model.hand_sizes = { S: 4, W: 4, N: 4, E: 4 };
        model.to_move = nextSeat(event.dealer);
        announce(words.sayDealStart(event.number, seatName(event.dealer), cardWithArticle(event.proposal)));
        return { pause: pace().bid };
      }
      default:
        return commonEvent(model, event);
    }
  },

  /** The view as it stood when deal 1 was dealt, for animating the bots' first bids. */
  rewound(view) {
    const model = clone(view);
    const deal = model.deal;
    deal.bids = [];
    deal.proposals = deal.proposals.slice(0, 1);
    deal.trump = null;
    deal.taker = null;
    deal.tricks = [];
    deal.trick = { leader: nextSeat(deal.dealer), cards: [] };
    deal.points = { NS: 0, WE: 0 };
    model.phase = "bidding";
    model.to_move = nextSeat(deal.dealer);
    model.hand_sizes = { S: 4, W: 4, N: 4, E: 4 };
    model.legal = [];
    return model;
  },

  dealSummary(entry) {
    const words = t();
    const taker = entry.taker ? seatName(entry.taker) : "";
    const outcome = {
      made: words.outcomeMade(taker),
      failed: words.outcomeFailed(taker),
      tie: words.outcomeTie,
      redeal: words.outcomeRedeal,
    }[entry.outcome];
    const details = [];
    if (entry.taker) {
      const trump = `${suitSymbol(entry.trump)} ${words.suit[entry.trump]}`;
      details.push(words.takerWas(taker, trump) + (entry.stake > 1 ? ` ${words.doubled}` : ""));
    }
    return { outcome, details };
  },
};
