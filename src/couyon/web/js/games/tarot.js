// French tarot at the shared table (see the interface in docs/web.md), for the API's tarot3,
// tarot4 and tarot5: three to five seats, the bids with their multipliers, the call at five,
// the chien turned face up on petite and garde, the écart picked card by card in the hand,
// the taker's chelem window, poignées and misères in the first trick, and a score sheet
// with every step of the count after each deal. Only what view.legal (or the view's
// ecart_rule and poignee_rule) allows is offered.

import { tableCard } from "../cards.js";
import { cardName, cardWithArticle, formatDay, parseCard, t } from "../i18n.js";
import { pace } from "../settings.js";
import { announce, clone, commonEvent, controlButton, rerender, seatName, seatsOf, seatYou } from "../table/shared.js";

const $ = (id) => document.getElementById(id);
const words = () => t().tarot;

const BIDS = ["pass", "petite", "garde", "garde-sans", "garde-contre"];
const MULTIPLIERS = { petite: 1, garde: 2, "garde-sans": 4, "garde-contre": 6 };
const HAND_SIZES = { 3: 24, 4: 18, 5: 15 };
const SUITS = ["C", "D", "H", "S"];
const CALLABLE_RANKS = ["K", "Q", "N", "J"];
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3, T: 4, X: 5 };
const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"];
const POIGNEE_SIZES = { 3: [13, 15, 18], 4: [10, 13, 15], 5: [8, 10, 13] };

const isTrump = (code) => code.endsWith("T");
const isCard = (move) => /^(\d+[CDHST]|[JNQK][CDHS]|EX)$/.test(move);

/** Draw the table again after a change of what South picks, and put the focus in the hand or on ``target``. */
function redraw(target = null) {
  rerender();
  const focus = target && !target.hidden ? target : document.querySelector('.hand-card[tabindex="0"]');
  focus?.focus();
}
const takesChien = (contract) => contract === "petite" || contract === "garde";

function following(model, seat) {
  const seats = seatsOf(model);
  return seats[(seats.indexOf(seat) + 1) % seats.length];
}

// What South is picking in his hand: the écart, or the trumps of a poignée. A new view (another
// move number) starts afresh.
const pick = { moveNumber: null, kind: null, chosen: new Set() };

function currentPick(model) {
  if (pick.moveNumber !== model.move_number) {
    pick.moveNumber = model.move_number;
    pick.kind = null;
    pick.chosen = new Set();
  }
  if (model.ecart_rule) pick.kind = "ecart";
  else if (pick.kind === "ecart" || (pick.kind === "poignee" && !model.poignee_rule)) pick.kind = null;
  return pick;
}

const chosenTrumps = () => [...pick.chosen].filter(isTrump).length;

/** Whether South may add (or take back) ``code`` in what he is picking now. */
function mayPick(model, code) {
  if (pick.chosen.has(code)) return true;
  if (pick.kind === "ecart") {
    const rule = model.ecart_rule;
    if (!rule.cards.includes(code) || pick.chosen.size >= rule.size) return false;
    return !isTrump(code) || chosenTrumps() < rule.max_trumps;
  }
  if (pick.kind === "poignee") {
    const rule = model.poignee_rule;
    const largest = Math.max(...rule.sizes.map((size) => size.size));
    if (pick.chosen.size >= largest) return false;
    if (code === "EX") return rule.excuse && chosenTrumps() === rule.trumps.length;
    return rule.trumps.includes(code);
  }
  return false;
}

/** The poignée sizes South may show with the trumps picked now (the Excuse only with every trump). */
function poigneeReady(model) {
  const rule = model.poignee_rule;
  if (!rule || pick.kind !== "poignee") return [];
  if (pick.chosen.has("EX") && chosenTrumps() !== rule.trumps.length) return [];
  return rule.sizes.filter((size) => size.size === pick.chosen.size);
}

function byCode(a, b) {
  const x = parseCard(a);
  const y = parseCard(b);
  if (x.suit !== y.suit) return SUIT_ORDER[x.suit] - SUIT_ORDER[y.suit];
  if (x.suit === "T") return Number(x.rank) - Number(y.rank);
  return RANKS.indexOf(x.rank) - RANKS.indexOf(y.rank);
}

const sortedCodes = (codes) => [...codes].sort(byCode);
const namesOf = (codes) => sortedCodes(codes).map(cardName).join(", ");

function contractName(contract) {
  return words().contract[contract];
}

function signed(value) {
  return value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "0";
}

function points(value) {
  return String(value).replace(".", t().decimalPoint);
}

/** A hint under a group of buttons, which they name as their description. */
function help(id) {
  const element = document.createElement("p");
  element.className = "control-help";
  element.id = id;
  return element;
}

function row(id, className, label = null) {
  const element = document.createElement("div");
  element.id = id;
  element.className = className;
  element.hidden = true;
  if (label) element.setAttribute("role", "group");
  return element;
}

/** A button of the controls that does ``action`` when pressed, described by the element ``describedBy`` if given. */
function actionButton(id, primary, action, describedBy = null) {
  const element = controlButton(id, primary);
  if (describedBy) element.setAttribute("aria-describedby", describedBy);
  element.addEventListener("click", action);
  return element;
}

/**
 * A hidden row of buttons (the écart, the chelem window, the announcements, the poignée shown): a
 * count of the cards picked above them (its id ``count``) or a hint below them (its id ``hint``).
 */
function buttonRow(id, buttons, { count = null, hint = null } = {}) {
  const element = row(id, `call-buttons ${id}`);
  if (count) {
    const line = document.createElement("p");
    line.id = count;
    line.className = "pick-count";
    element.append(line);
  }
  const group = document.createElement("div");
  group.className = "bid-buttons";
  group.append(...buttons);
  element.append(group);
  if (hint) element.append(help(hint));
  return element;
}

function show(id, visible) {
  $(id).hidden = !visible;
}

function phaseTurn(model) {
  if (model.phase === "bidding") return "bid";
  if (model.phase === "call") return "call";
  if (model.phase === "ecart") return "ecart";
  if (model.legal.includes("no-chelem")) return "chelem";
  if (currentPick(model).kind === "poignee") return "poignee";
  return "play";
}

function announcementsOffered(model) {
  return (
    Boolean(model.poignee_rule) || model.legal.includes("misere-atout") || model.legal.includes("misere-tete")
  );
}

function resetDeal(model, number, dealer) {
  const seats = seatsOf(model);
  model.deal = {
    number,
    dealer,
    bids: [],
    taker: null,
    contract: null,
    multiplier: null,
    called: null,
    partner_known: false,
    partner: null,
    chien: null,
    ecart: null,
    ecart_trumps: [],
    chelem_announced: false,
    poignees: [],
    miseres: [],
    tricks: [],
    trick: { leader: following(model, dealer), cards: [] },
  };
  model.phase = "bidding";
  model.to_move = following(model, dealer);
  model.hand_sizes = Object.fromEntries(seats.map((seat) => [seat, HAND_SIZES[seats.length]]));
}

function sheetRow(body, label, value) {
  const tr = body.insertRow();
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = label;
  tr.append(th);
  tr.insertCell().textContent = value;
}

function table(className, caption) {
  const element = document.createElement("table");
  element.className = className;
  element.createCaption().textContent = caption;
  return element;
}

function paragraph(text, className = "") {
  const element = document.createElement("p");
  if (className) element.className = className;
  element.textContent = text;
  return element;
}

function totalsSentence(model, totals) {
  return seatsOf(model)
    .map((seat) => `${seatName(seat)} ${signed(totals[seat])}`)
    .join(", ");
}

/** Each seat's place by total (1 = best), ties sharing a place. */
function placeOf(totals, seat) {
  return 1 + Object.values(totals).filter((total) => total > totals[seat]).length;
}

export default {
  id: "tarot",
  startLines: 0,

  /** Spades, hearts, clubs, diamonds (black and red in turn), each from the 1 up; trumps 1 to 21; the Excuse last. */
  sortHand: (hand) => sortedCodes(hand),

  // Trumps are drawn as trumps and named "… d'atout": no extra mark on ten or more cards.
  isTrump: () => false,

  southActs: (model) => model.legal.length > 0,

  allows(model, move) {
    if (model.legal.includes(move)) return true;
    if (move.startsWith("ecart:")) return Boolean(model.ecart_rule);
    return move.startsWith("poignee:") && Boolean(model.poignee_rule);
  },

  playsCards: (model) => model.phase === "playing" && currentPick(model).kind === null && model.legal.some(isCard),

  turn: phaseTurn,

  picking(model) {
    const current = currentPick(model);
    if (!current.kind) return null;
    return { chosen: current.chosen, may: (code) => mayPick(model, code) };
  },

  pick(code, model) {
    const text = words();
    if (pick.chosen.has(code)) pick.chosen.delete(code);
    else pick.chosen.add(code);
    const chosen = pick.chosen.has(code);
    if (pick.kind === "ecart") {
      const left = model.ecart_rule.size - pick.chosen.size;
      announce(text.sayPicked(cardName(code), chosen, left));
    } else {
      announce(text.sayShown(cardName(code), chosen, pick.chosen.size));
    }
  },

  seatRole: () => "",

  mountControls(box, send) {
    const bidBox = row("tarot-bid-box", "call-buttons");
    const bids = row("tarot-bids", "bid-buttons tarot-bids", true);
    bids.hidden = false;
    for (const bid of BIDS) {
      // Named as said ("Garde"); the multiplier is drawn beside the word and told by the help below.
      const taking = bid !== "pass";
      bids.append(actionButton(`bid-${bid}`, taking, () => send(bid), taking ? "bid-help" : null));
    }
    bidBox.append(bids, help("bid-help"));

    const calls = row("tarot-calls", "call-buttons tarot-calls", true);
    const callGrid = document.createElement("div");
    callGrid.className = "card-buttons";
    for (const rank of CALLABLE_RANKS) {
      for (const suit of SUITS) {
        const call = actionButton(`call-${rank}${suit}`, false, () => send(`call:${rank}${suit}`));
        call.dataset.card = `${rank}${suit}`;
        callGrid.append(call);
      }
    }
    calls.append(callGrid, help("call-help"));

    const clear = actionButton("ecart-clear", false, () => {
      pick.chosen = new Set();
      redraw();
    });
    const confirm = actionButton("ecart-button", true, () => send(`ecart:${sortedCodes(pick.chosen).join(",")}`), "ecart-count");
    const ecart = buttonRow("tarot-ecart", [clear, confirm], { count: "ecart-count" });

    const announceChelem = actionButton("chelem-button", true, () => send("chelem"), "chelem-help");
    const noChelem = actionButton("no-chelem-button", false, () => send("no-chelem"));
    const chelem = buttonRow("tarot-chelem", [announceChelem, noChelem], { hint: "chelem-help" });

    const poignee = actionButton(
      "poignee-button",
      false,
      () => {
        pick.kind = "poignee";
        pick.chosen = new Set();
        redraw();
      },
      "announce-help",
    );
    const atout = actionButton("misere-atout-button", false, () => send("misere-atout"), "announce-help");
    const tete = actionButton("misere-tete-button", false, () => send("misere-tete"), "announce-help");
    const announcements = buttonRow("tarot-announce", [poignee, atout, tete], { hint: "announce-help" });

    const cancel = actionButton("poignee-cancel", false, () => {
      pick.kind = null;
      pick.chosen = new Set();
      redraw($("poignee-button"));
    });
    const sizes = [8, 10, 13, 15, 18].map((size) =>
      actionButton(`poignee-${size}`, true, () => send(`poignee:${sortedCodes(pick.chosen).join(",")}`), "poignee-count"),
    );
    const showing = buttonRow("tarot-poignee", [cancel, ...sizes], { count: "poignee-count" });

    box.append(bidBox, calls, ecart, chelem, announcements, showing);
  },

  renderControls(model, acting) {
    const text = words();
    const turn = acting ? phaseTurn(model) : "wait";
    const current = currentPick(model);

    show("tarot-bid-box", turn === "bid");
    $("tarot-bids").setAttribute("aria-label", text.bidGroup);
    $("bid-help").textContent = text.bidHelp;
    for (const bid of BIDS) {
      const button = $(`bid-${bid}`);
      if (bid === "pass") button.textContent = text.pass;
      else {
        const multiplier = document.createElement("span");
        multiplier.className = "multiplier";
        multiplier.setAttribute("aria-hidden", "true");
        multiplier.textContent = `×${MULTIPLIERS[bid]}`;
        button.replaceChildren(`${contractName(bid)} `, multiplier);
      }
      button.hidden = !model.legal.includes(bid);
    }

    show("tarot-calls", turn === "call");
    $("tarot-calls").setAttribute("aria-label", text.callGroup);
    $("tarot-calls").setAttribute("aria-describedby", "call-help");
    $("call-help").textContent = text.callHelp;
    for (const button of $("tarot-calls").querySelectorAll("button")) {
      const card = button.dataset.card;
      button.textContent = text.callCard(cardWithArticle(card));
      button.hidden = !model.legal.includes(`call:${card}`);
    }

    show("tarot-ecart", turn === "ecart");
    if (turn === "ecart") {
      const rule = model.ecart_rule;
      const left = rule.size - current.chosen.size;
      $("ecart-count").textContent = text.ecartCount(rule.size, left, rule.max_trumps);
      $("ecart-button").textContent = text.ecartButton(rule.size);
      $("ecart-button").disabled = left !== 0;
      $("ecart-clear").textContent = text.ecartClear;
      $("ecart-clear").disabled = current.chosen.size === 0;
    }

    show("tarot-chelem", turn === "chelem");
    $("chelem-button").textContent = text.chelem;
    $("no-chelem-button").textContent = text.noChelem;
    $("chelem-help").textContent = text.chelemHelp;

    const offered = turn === "play" && announcementsOffered(model);
    show("tarot-announce", offered);
    $("poignee-button").textContent = text.poignee;
    $("poignee-button").hidden = !model.poignee_rule;
    $("misere-atout-button").textContent = text.misereAtout;
    $("misere-atout-button").hidden = !model.legal.includes("misere-atout");
    $("misere-tete-button").textContent = text.misereTete;
    $("misere-tete-button").hidden = !model.legal.includes("misere-tete");
    $("announce-help").textContent = text.announceHelp;

    show("tarot-poignee", turn === "poignee");
    if (turn === "poignee") {
      const rule = model.poignee_rule;
      const ready = poigneeReady(model).map((size) => size.size);
      $("poignee-count").textContent = text.poigneeCount(
        current.chosen.size,
        rule.sizes.map((size) => text.poigneeSize(size.size, POIGNEE_SIZES[model.players].indexOf(size.size), size.prime)),
        rule.excuse,
      );
      for (const size of [8, 10, 13, 15, 18]) {
        const allowed = rule.sizes.find((entry) => entry.size === size);
        const button = $(`poignee-${size}`);
        button.hidden = !allowed;
        if (allowed) button.textContent = text.showPoignee(size);
        button.disabled = !ready.includes(size);
      }
      $("poignee-cancel").textContent = text.cancel;
    }
  },

  focusControls(model) {
    const turn = phaseTurn(model);
    if (turn === "bid") return BIDS.map((bid) => $(`bid-${bid}`)).filter((button) => !button.hidden);
    if (turn === "call") return [...$("tarot-calls").querySelectorAll("button:not([hidden])")];
    if (turn === "chelem") return [$("chelem-button"), $("no-chelem-button")];
    return [];
  },

  prompt(model) {
    const text = words();
    const turn = phaseTurn(model);
    if (turn === "bid") return text.promptBid;
    if (turn === "call") return text.promptCall;
    if (turn === "ecart") return text.promptEcart(model.ecart_rule.size);
    if (turn === "chelem") return text.promptChelem;
    if (turn === "poignee") return text.promptPoignee;
    return announcementsOffered(model) ? text.promptAnnounce : t().promptPlay;
  },

  yourTurn(model) {
    const text = words();
    const turn = phaseTurn(model);
    if (turn === "bid") return text.yourTurnBid;
    if (turn === "call") return text.yourTurnCall;
    if (turn === "ecart") return text.yourTurnEcart(model.ecart_rule.size);
    if (turn === "chelem") return text.yourTurnChelem;
    return announcementsOffered(model) ? text.yourTurnAnnounce : t().sayYourTurnPlay;
  },

  seatChips(seat, model) {
    const text = words();
    const deal = model.deal;
    const chips = [];
    if (deal.taker === seat) chips.push(["chip-taker", text.takerChip(contractName(deal.contract))]);
    if (deal.partner_known && deal.partner === seat) chips.push(["chip-taker", text.partnerChip]);
    // Short words: a side seat is 52 px wide on a phone; the facts say which poignée or misère.
    if (deal.taker === seat && deal.chelem_announced) chips.push(["chip-call", text.chelemShort]);
    if (deal.poignees.some((poignee) => poignee.seat === seat)) chips.push(["chip-call", text.poigneeChip()]);
    if (deal.miseres.some((misere) => misere.seat === seat)) chips.push(["chip-call", text.misereShort]);
    return chips;
  },

  seatBubble(seat, model) {
    if (model.phase !== "bidding") return null;
    const bid = model.deal.bids.find((entry) => entry.seat === seat);
    if (!bid) return null;
    return {
      className: bid.bid === "pass" ? "bubble-pass" : "bubble-take",
      text: bid.bid === "pass" ? words().saidPass : contractName(bid.bid),
    };
  },

  /** The chien, face up on petite and garde until the écart is made; then the contract and the called card. */
  renderCentre(box, model) {
    const text = words();
    const deal = model.deal;
    box.replaceChildren();
    if (model.phase === "ecart" && deal.chien) {
      const chien = document.createElement("div");
      chien.className = "chien";
      chien.setAttribute("role", "group");
      chien.setAttribute("aria-label", text.chienLabel);
      for (const code of deal.chien) chien.append(tableCard(code, "small"));
      box.append(chien, paragraph(text.chienCaption(seatName(deal.taker), deal.taker === "S"), "proposal-caption"));
      return;
    }
    if (model.phase === "call") {
      box.append(paragraph(text.calling(seatName(deal.taker), deal.taker === "S"), "proposal-caption"));
      return;
    }
    if (deal.taker && model.phase !== "bidding") {
      const badge = document.createElement("p");
      badge.className = "trump-badge contract-badge";
      let said = text.contractBadge(seatName(deal.taker), contractName(deal.contract), deal.multiplier);
      if (deal.called) {
        said += ` · ${text.calledBadge(cardName(deal.called))}`;
        if (deal.partner_known) said += ` · ${deal.partner ? text.partnerIs(seatName(deal.partner)) : text.alone}`;
      }
      badge.textContent = said;
      box.append(badge);
    }
  },

  chalkNote: () => null,

  scoreTitle: () => words().scoreTitle,

  /** Every seat's total and its score in the last deal played. */
  renderScore(box, model) {
    const text = words();
    box.replaceChildren();
    const played = model.deal_log.filter((entry) => entry.outcome === "played");
    const last = played[played.length - 1];
    const element = table("score-table", text.scoreCaption(model.played, model.deals));
    const head = element.createTHead().insertRow();
    for (const label of [text.playerHeader, text.lastDealHeader, text.totalHeader]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = label;
      head.append(th);
    }
    const body = element.createTBody();
    for (const seat of seatsOf(model)) {
      const tr = body.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = seat === "S" ? seatYou() : seatName(seat);
      tr.append(th);
      tr.insertCell().textContent = last ? signed(last.scores[seat]) : "—";
      tr.insertCell().textContent = signed(model.totals[seat]);
    }
    box.append(element);
  },

  facts(model) {
    const text = words();
    const all = t();
    const deal = model.deal;
    const facts = [
      [all.factDeal, text.dealOf(deal.number, model.played, model.deals)],
      [all.factDealer, seatName(deal.dealer)],
      [text.factContract, deal.taker ? text.contractBadge(seatName(deal.taker), contractName(deal.contract), deal.multiplier) : text.noContract],
    ];
    if (model.players === 5) {
      const partner = deal.partner_known ? (deal.partner ? seatName(deal.partner) : text.alone) : text.unknown;
      facts.push([text.factCalled, deal.called ? `${cardName(deal.called)} · ${partner}` : "—"]);
    }
    let chien = text.chienHidden;
    if (deal.chien) chien = namesOf(deal.chien);
    else if (deal.contract === "garde-sans") chien = text.chienAttack;
    else if (deal.contract === "garde-contre") chien = text.chienDefence;
    facts.push([text.factChien, chien]);
    if (deal.ecart) facts.push([text.factEcart, namesOf(deal.ecart)]);
    else if (deal.ecart_trumps.length) facts.push([text.factEcartTrumps, namesOf(deal.ecart_trumps)]);
    const said = [
      ...(deal.chelem_announced ? [text.chelemChip] : []),
      ...deal.poignees.map((entry) => `${seatName(entry.seat)} : ${text.poigneeFact(entry.cards.length, entry.prime)}`),
      ...deal.miseres.map((entry) => `${seatName(entry.seat)} : ${text.misereChip[entry.kind]}`),
    ];
    facts.push([text.factAnnouncements, said.length ? said.join(" ; ") : text.none]);
    return facts;
  },

  applyEvent(model, event, finalView) {
    const text = words();
    const deal = model.deal;
    const you = event.seat === "S";
    const who = event.seat ? seatName(event.seat) : "";
    switch (event.type) {
      case "bid":
        deal.bids.push({ seat: event.seat, bid: event.bid });
        model.to_move = following(model, event.seat);
        announce(text.sayBid(who, event.bid === "pass" ? null : contractName(event.bid), you));
        return { pause: you ? 0 : pace().bid };
      case "contract":
        deal.taker = event.taker;
        deal.contract = event.contract;
        deal.multiplier = event.multiplier;
        model.to_move = event.taker;
        if (model.players === 5) model.phase = "call";
        else if (!takesChien(event.contract)) {
          model.phase = "playing";
          model.to_move = following(model, event.taker);
          deal.trick = { leader: model.to_move, cards: [] };
        }
        announce(text.sayContract(seatName(event.taker), contractName(event.contract), event.multiplier, event.taker === "S"));
        return { pause: pace().bid };
      case "call":
        deal.called = event.card;
        if (takesChien(deal.contract)) model.phase = "ecart";
        else {
          model.phase = "playing";
          model.to_move = following(model, deal.taker);
          deal.trick = { leader: model.to_move, cards: [] };
        }
        announce(text.sayCall(who, cardWithArticle(event.card), you));
        return { pause: you ? 0 : pace().bid };
      case "chien":
        deal.chien = [...event.cards];
        model.phase = "ecart";
        model.to_move = deal.taker;
        model.hand_sizes[deal.taker] += event.cards.length;
        if (deal.taker === "S") model.hand = [...model.hand, ...event.cards];
        announce(text.sayChien(namesOf(event.cards)));
        return { pause: 2 * pace().bid };
      case "partner":
        deal.partner_known = true;
        deal.partner = event.partner;
        announce(event.partner ? text.sayPartner(seatName(event.partner), event.partner === "S") : text.sayAlone(seatName(deal.taker), deal.taker === "S"));
        return { pause: pace().bid };
      case "ecart":
        deal.ecart_trumps = [...event.trumps];
        if (event.cards) {
          deal.ecart = [...event.cards];
          model.hand = model.hand.filter((code) => !event.cards.includes(code));
        }
        model.hand_sizes[event.seat] -= event.size;
        model.phase = "playing";
        model.to_move = following(model, event.seat);
        deal.trick = { leader: model.to_move, cards: [] };
        announce(text.sayEcart(who, event.trumps.length ? namesOf(event.trumps) : null, you));
        return { pause: you ? 0 : pace().bid };
      case "chelem":
        deal.chelem_announced = true;
        deal.trick = { leader: event.seat, cards: [] };
        model.to_move = event.seat;
        announce(text.sayChelem(who, you));
        return { pause: you ? 0 : pace().bid };
      case "poignee":
        deal.poignees.push({ seat: event.seat, cards: [...event.cards], prime: event.prime });
        announce(text.sayPoignee(who, event.cards.length, event.cards.map((code) => (code === "EX" ? cardName(code) : parseCard(code).rank)).join(", "), you));
        return { pause: you ? 0 : pace().bid };
      case "misere":
        deal.miseres.push({ seat: event.seat, kind: event.kind });
        announce(text.sayMisere(who, text.misereChip[event.kind], you));
        return { pause: you ? 0 : pace().bid };
      case "deal_start": {
        resetDeal(model, event.number, event.dealer);
        // After a deal_start, an answer stops at South's bid: his hand is still the one dealt.
        model.hand = finalView.deal.number === event.number ? [...finalView.hand] : [];
        announce(text.sayDealStart(event.number, seatName(event.dealer), event.dealer === "S"));
        return { pause: pace().bid };
      }
      default:
        return commonEvent(model, event);
    }
  },

  dealEnded(model, entry) {
    model.totals = { ...entry.totals };
    if (entry.outcome === "played") model.played += 1;
    model.deal_log = [...model.deal_log, entry];
  },

  /** The view as it stood when the deal was dealt, for animating the bots' first bids. */
  rewound(view) {
    const model = clone(view);
    resetDeal(model, view.deal.number, view.deal.dealer);
    model.legal = [];
    return model;
  },

  dealSummary(entry) {
    const text = words();
    if (entry.outcome === "redeal") return { outcome: text.outcomeRedeal, details: [] };
    if (entry.outcome === "petit-sec") {
      const holders = entry.petit_sec.map((shown) => seatName(shown.seat)).join(", ");
      return { outcome: text.outcomePetitSec(holders), details: entry.petit_sec.map((shown) => `${seatName(shown.seat)} : ${namesOf(shown.cards)}`) };
    }
    const taker = seatName(entry.taker);
    const made = entry.result === "made";
    return { outcome: text.outcomePlayed(taker, contractName(entry.contract), made, entry.margin), details: [] };
  },

  /** The score sheet: every step of the count, then each seat's share, misères, deal score and total. */
  dealSheet(entry, model) {
    const text = words();
    const nodes = [];
    const seats = seatsOf(model);
    const last = entry.outcome === "played" && model.played + 1 === model.deals;
    if (entry.outcome === "played") {
      const count = table("sheet-table", text.countCaption);
      const body = count.createTBody();
      let team = seatName(entry.taker);
      if (entry.called) team += entry.partner ? ` + ${seatName(entry.partner)}` : ` (${text.alone})`;
      sheetRow(body, text.sheetContract, `${contractName(entry.contract)} ×${entry.multiplier} · ${team}`);
      sheetRow(body, text.sheetBouts, text.boutsNeed(entry.bouts, entry.needed));
      sheetRow(body, text.sheetPoints, points(entry.points));
      sheetRow(body, text.sheetResult, text.result(entry.result === "made", entry.margin));
      const sign = entry.result === "made" ? "" : "−";
      sheetRow(body, text.sheetBase, `${sign}(25 + ${entry.margin}) × ${entry.multiplier} = ${signed(entry.contract_points)}`);
      sheetRow(body, text.sheetPetit, entry.petit_au_bout ? `${signed(entry.petit_au_bout_points)} (${text.camp[entry.petit_au_bout]})` : "—");
      sheetRow(body, text.sheetPoignees, entry.poignees.length ? signed(entry.poignee_points) : "—");
      sheetRow(body, text.sheetChelem, entry.chelem_points || entry.chelem_announced ? signed(entry.chelem_points) : "—");
      sheetRow(body, text.sheetMarque, signed(entry.marque));
      nodes.push(count);
      const scores = table("sheet-table", text.scoresCaption);
      const head = scores.createTHead().insertRow();
      for (const label of [text.playerHeader, text.shareHeader, text.misereHeader, text.dealHeader, text.totalHeader]) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = label;
        head.append(th);
      }
      const rows = scores.createTBody();
      for (const seat of seats) {
        const tr = rows.insertRow();
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = seat === "S" ? seatYou() : seatName(seat);
        tr.append(th);
        for (const value of [entry.shares[seat], entry.misere_points[seat], entry.scores[seat], entry.totals[seat]]) {
          tr.insertCell().textContent = signed(value);
        }
      }
      nodes.push(scores);
      nodes.push(paragraph(`${text.factChien} : ${namesOf(entry.chien)}.${entry.ecart ? ` ${text.factEcart} : ${namesOf(entry.ecart)}.` : ""}`, "sheet-cards"));
    } else {
      nodes.push(paragraph(text.noScore));
    }
    return { nodes, said: text.totalsSaid(totalsSentence(model, entry.totals)), last };
  },

  endOfGame(model, game) {
    const text = words();
    const place = placeOf(model.totals, "S");
    const count = seatsOf(model).length;
    const dealt = model.deal_log.length ? model.deal_log[model.deal_log.length - 1].number : model.deal.number;
    return {
      title: text.endTitle(place, count),
      lines: [text.endScore(signed(model.score)), text.endTotals(totalsSentence(model, model.totals)), text.endDeals(model.deals, dealt)],
      share: game.day ? text.shareText(count, formatDay(game.day), model.score, place) : "",
    };
  },

  sayGameOver: (event) => words().sayGameOver(event.score),
};
