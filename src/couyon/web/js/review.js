// The review of a finished game of couyon or couyon de Malmedy (#/review/<game id>), loaded on
// its first visit: every deal trick by trick with the hands, the bids (Malmedy: the trump, the
// mite and its answers), and each of South's decisions judged by the expert (from South's view)
// and with every hand known (docs/api.md, "The review"). The costliest decisions are listed
// first and marked in words wherever they appear. A coucou game's review is a list of the coups
// seat 1 played: its choice beside the expert's, the other choice's outcome, the showdown.
// A friends' table's game (#/tables/<code>/<secret>/review/<game id>) is reviewed from the reader's own
// seat: the server writes it from there (its `seat`), and js/friends/seats.js turns its seats round as
// the table did, so the reader is South (seat 1 at coucou) and his camp "us" here too. A tarot game's
// review (drawTarot) lists each deal with South's decisions (bids, call, écart, announcements, cards),
// each one's options valued in points by the expert and with open cards.

import { api } from "./api.js";
import { addWords, cardName, cardWithArticle, currentLanguage, t } from "./i18n.js";
import { byHandOrder, suitSymbol } from "./cards.js";
import { loadWords, pageGame } from "./games/index.js";
import { seatOrder, turning } from "./friends/seats.js";
import reviewWords from "./review-words.js";

addWords(reviewWords);

const SEATS = ["S", "W", "N", "E"];
const page = { id: null, table: null, review: null, error: null, deal: 0, trick: 0, drawn: null };

/**
 * Show the review of ``gameId`` in ``root`` (a friends' table's, from the reader's seat, when ``table``
 * gives its code and secret); its data is fetched once, and drawn again for another language.
 */
export async function showReview(root, gameId, table = null) {
  if (page.id !== gameId) {
    Object.assign(page, { id: gameId, table, review: null, error: null, deal: 0, trick: 0, drawn: null });
    root.replaceChildren(paragraph(t().review.loading));
    try {
      page.review = table ? fromOwnSeat(await api.tableReview(table.code, table.secret)) : await api.review(gameId);
      await loadWords(page.review.game); // the game's own words (coucou's review words live with coucou)
    } catch (error) {
      page.error = error;
    }
    if (page.id !== gameId) return; // another review was asked for meanwhile
  }
  const drawn = `${gameId}:${currentLanguage()}`;
  if (page.drawn === drawn && root.childElementCount > 1) return;
  page.drawn = drawn;
  if (page.error) {
    root.replaceChildren(paragraph(failure(page.error), "review-error"));
    page.id = null; // asked again on the next visit: the game may be over by then
  } else if (page.review.game === "coucou" || page.review.game === "as-qui-court") drawCoucou(root);
  else if (pageGame(page.review.game) === "tarot") drawTarot(root);
  else draw(root);
  if (page.table) root.prepend(backToTable(page.table));
}

/** A table's review with its seats turned round so that the reader's seat (``seat``) is South, or seat 1. */
function fromOwnSeat(review) {
  const coucou = !Array.isArray(review.seats) && typeof review.players === "number"; // tarot lists its seats
  const mine = coucou ? Number(review.seat) : review.seat;
  return turning(seatOrder(coucou ? { players: review.players, seat: mine } : review), mine).answer(review);
}

function backToTable(table) {
  const link = element("a", "button", t().review.backToTable);
  link.id = "review-back-to-table";
  link.href = `#/tables/${table.code}/${table.secret}`;
  const line = paragraph("");
  line.append(link);
  return line;
}

function failure(error) {
  const words = t().review;
  if (error.status === 404) return words.notFound;
  if (error.code === "game_not_over") return words.notOver;
  if (error.code === "no_review") return words.noReview;
  return words.unreachable;
}

// ---------------------------------------------------------------- small helpers

function element(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function paragraph(text, className = "") {
  return element("p", className, text);
}

/** A card as text: its rank and suit symbol drawn, its name spoken. */
function cardChip(code) {
  const { rankLetter } = t();
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  const chip = element("span", `review-card suit-${suit}`, `${rankLetter[rank] ?? rank}${suitSymbol(suit)}`);
  chip.setAttribute("role", "img");
  chip.setAttribute("aria-label", cardName(code));
  return chip;
}

/** A number with two decimals in the page's language, signed unless it is a cost. */
function decimal(value, signed = true) {
  return new Intl.NumberFormat(currentLanguage() === "fr" ? "fr-BE" : "en-GB", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: signed ? "exceptZero" : "auto",
  }).format(value);
}

/** A value in chalk lines (a cost unsigned). */
function linesValue(value, signed = true) {
  return t().review.lines(decimal(value, signed), Math.abs(value));
}

/** The judged decisions of the game in order, each with where it happened. */
function decisions(review) {
  const found = [];
  review.deals.forEach((deal, dealIndex) => {
    for (const bid of deal.bids) if (bid.review) found.push({ dealIndex, trick: 0, bid, review: bid.review });
    deal.tricks.forEach((trick, trickIndex) => {
      for (const played of trick.cards) {
        if (played.review) found.push({ dealIndex, trick: trickIndex, played, review: played.review });
      }
    });
  });
  return found;
}

/** What a decision was, in one phrase ("tu as pris sur la dame de carreau", "tu as joué l'as de cœur"). */
function decisionText(decision) {
  const words = t().review;
  if (decision.bid?.call) return words.youCall(decision.bid.call, t().suit[decision.bid.call.slice(-1)]);
  if (decision.bid) return words.youBid(decision.bid.take, cardWithArticle(decision.bid.proposal));
  return words.youPlayed(cardWithArticle(decision.played.card));
}

function costlyMark() {
  const mark = element("strong", "review-costly");
  const sign = element("span", "", "⚠ ");
  sign.setAttribute("aria-hidden", "true");
  mark.append(sign, t().review.costly);
  return mark;
}

// ---------------------------------------------------------------- the page

function draw(root) {
  const words = t().review;
  const review = page.review;
  // No winner: a club tournament's game of one deal, over once that deal is played (docs/clubs.md).
  const summary =
    review.winner === null
      ? words.dealPlayed(review.score)
      : words.summary(review.winner === "NS", review.score, review.deals.length);
  const parts = [paragraph(summary, "review-summary"), paragraph(words.explain)];
  if (!review.revealed) parts.push(paragraph(words.hidden, "review-hidden"));
  parts.push(costliest(review));

  const choice = element("div", "review-deal-choice");
  const label = element("label", "", words.dealLabel);
  label.htmlFor = "review-deal";
  const select = element("select");
  select.id = "review-deal";
  review.deals.forEach((deal, index) => {
    const option = element("option", "", words.dealOption(deal.number, dealSummary(deal)));
    option.value = String(index);
    select.append(option);
  });
  select.value = String(page.deal);
  select.addEventListener("change", () => show(Number(select.value), 0));
  choice.append(label, select);

  const deal = element("section", "review-deal panel");
  deal.id = "review-deal-panel";
  deal.setAttribute("aria-labelledby", "review-deal-title");
  const head = element("div");
  head.id = "review-deal-head";
  // The buttons stay while the deals and tricks change under them, so the focus stays on them.
  const nav = element("div", "review-nav button-row");
  for (const [id, text, delta] of [
    ["review-previous", words.previous, -1],
    ["review-next", words.next, 1],
  ]) {
    const button = element("button", "button", text);
    button.type = "button";
    button.id = id;
    button.addEventListener("click", () => step(delta));
    nav.append(button);
  }
  const trick = element("div", "review-trick");
  trick.id = "review-trick";
  deal.append(head, nav, trick);
  const status = element("p", "visually-hidden");
  status.id = "review-status";
  status.setAttribute("role", "status");
  parts.push(choice, deal, status);
  root.replaceChildren(...parts);
  drawDeal();
}

function costliest(review) {
  const words = t().review;
  const section = element("section", "review-costliest panel");
  section.setAttribute("aria-labelledby", "review-costliest-title");
  const heading = element("h2", "", words.costliestTitle);
  heading.id = "review-costliest-title";
  section.append(heading);
  const marked = decisions(review)
    .filter((decision) => decision.review.costly)
    .sort((a, b) => b.review.cost - a.review.cost);
  if (!marked.length) {
    section.append(paragraph(words.noCostly));
    return section;
  }
  const list = element("ol");
  for (const decision of marked) {
    const item = element("li");
    const deal = review.deals[decision.dealIndex];
    const where = decision.bid ? words.whereBid(deal.number) : words.whereTrick(deal.number, decision.trick + 1);
    item.append(paragraph(words.costlyItem(where, decisionText(decision), linesValue(decision.review.cost, false))));
    const button = element("button", "button small", words.see(where));
    button.type = "button";
    button.addEventListener("click", () => {
      show(decision.dealIndex, decision.trick);
      document.getElementById("review-trick-title")?.focus();
    });
    item.append(button);
    list.append(item);
  }
  section.append(list);
  return section;
}

function dealSummary(deal) {
  const words = t().review;
  if (deal.chooser) return words.chose(t().seat[deal.chooser], t().suit[deal.trump], words.outcome[deal.outcome]);
  if (!deal.taker) return words.nobodyTook;
  return words.taken(t().seat[deal.taker], t().suit[deal.trump], words.outcome[deal.outcome]);
}

/** Show the trick ``trick`` of deal ``dealIndex`` and say so in the status line. */
function show(dealIndex, trick) {
  const changedDeal = dealIndex !== page.deal;
  page.deal = dealIndex;
  page.trick = trick;
  const select = document.getElementById("review-deal");
  if (select) select.value = String(dealIndex);
  if (changedDeal) drawDeal();
  else drawTrick();
  const deal = page.review.deals[dealIndex];
  const words = t().review;
  const at = deal.tricks.length
    ? `${words.dealTitle(deal.number, page.review.deals.length)}, ${t().trickOf(trick + 1, deal.tricks.length)}.`
    : `${words.dealTitle(deal.number, page.review.deals.length)}. ${words.nobodyTookLong}`;
  document.getElementById("review-status").textContent = at;
}

function step(delta) {
  const deals = page.review.deals;
  let dealIndex = page.deal;
  let trick = page.trick + delta;
  const count = (index) => Math.max(1, deals[index].tricks.length);
  if (trick >= count(dealIndex)) [dealIndex, trick] = [dealIndex + 1, 0];
  if (trick < 0 && dealIndex > 0) [dealIndex, trick] = [dealIndex - 1, count(dealIndex - 1) - 1];
  if (trick < 0 || dealIndex >= deals.length) {
    document.getElementById("review-status").textContent = delta < 0 ? t().review.atStart : t().review.atEnd;
    return;
  }
  show(dealIndex, trick);
}

function drawDeal() {
  const words = t().review;
  const review = page.review;
  const deal = review.deals[page.deal];
  const heading = element("h2", "", words.dealTitle(deal.number, review.deals.length));
  heading.id = "review-deal-title";
  const facts = [paragraph(dealSummary(deal))];
  if (deal.par) facts.push(paragraph((deal.chooser ? words.parChosen : words.par)(words.outcome[deal.par])));

  const bidsTitle = element("h3", "", words.bidsTitle);
  const bids = element("ol", "review-bids");
  for (const bid of deal.bids) bids.append(bidItem(bid));

  document.getElementById("review-deal-head").replaceChildren(heading, ...facts, bidsTitle, bids);
  drawTrick();
}

function bidItem(bid) {
  if (bid.call) return callItem(bid);
  const words = t().review;
  const item = element("li");
  item.append(paragraph(words.bid(t().seat[bid.seat], bid.take, cardWithArticle(bid.proposal))));
  const judged = bid.review;
  if (!judged) return item;
  item.className = "review-judged";
  if (judged.costly) item.append(costlyMark());
  item.append(paragraph(words.bidJudged(linesValue(judged.take), linesValue(judged.pass), judged.expert_choice === "take")));
  if (judged.dd_take) item.append(paragraph(words.ddTake(words.outcome[judged.dd_take])));
  item.append(paragraph(judged.cost > 0 ? words.cost(linesValue(judged.cost, false)) : words.noCost));
  return item;
}

/** A Malmedy call (the trump, the mite, an answer to it) and, South's, judged. */
function callItem(bid) {
  const words = t().review;
  const item = element("li");
  item.append(paragraph(words.call(t().seat[bid.seat], bid.call, t().suit[bid.call.slice(-1)])));
  const judged = bid.review;
  if (!judged) return item;
  item.className = "review-judged";
  if (judged.costly) item.append(costlyMark());
  const trump = judged.options.some((option) => option.suit);
  const label = (option) =>
    trump ? t().suit[option.suit] : option.card === "mite" ? words.mite : words.answer[option.call] ?? cardChip(option.card);
  const chosen = (option) => (trump ? `trump-${option.suit}` : option.call ?? option.card) === bid.call;
  const header = trump ? words.suitHeader : words.choiceHeader;
  const caption = trump ? words.trumpCaption : words.choicesCaption;
  item.append(...judgement(judged, label, chosen, header, caption, words.chosen));
  return item;
}

/** The hands as they were before trick ``index`` (only South's before a daily's day is over). */
function handsBefore(deal, index) {
  const played = new Set(deal.tricks.slice(0, index).flatMap((trick) => trick.cards.map((c) => c.card)));
  return SEATS.filter((seat) => deal.hands[seat]).map((seat) => [
    seat,
    deal.hands[seat].filter((card) => !played.has(card)).sort(byHandOrder),
  ]);
}

function drawTrick() {
  const words = t().review;
  const deal = page.review.deals[page.deal];
  const box = document.getElementById("review-trick");
  const heading = element("h3", "", deal.tricks.length ? t().trickOf(page.trick + 1, deal.tricks.length) : words.handsTitle);
  heading.id = "review-trick-title";
  heading.tabIndex = -1;
  const parts = [heading];

  const hands = element("ul", "review-hands");
  hands.setAttribute("aria-label", deal.tricks.length ? words.handsBefore : words.handsTitle);
  for (const [seat, cards] of handsBefore(deal, page.trick)) {
    const item = element("li");
    item.append(element("span", "review-seat", `${t().seat[seat]}${words.colon}`), ...cards.map(cardChip));
    hands.append(item);
  }
  parts.push(hands);
  if (!page.review.revealed) parts.push(paragraph(words.othersHidden));

  const trick = deal.tricks[page.trick];
  if (!trick) {
    parts.push(paragraph(words.nobodyTookLong));
    box.replaceChildren(...parts);
    return;
  }
  const cards = element("ol", "review-trick-cards");
  cards.setAttribute("aria-label", words.trickCards);
  for (const played of trick.cards) {
    const item = element("li");
    item.append(element("span", "review-seat", `${t().seat[played.seat]}${words.colon}`), cardChip(played.card));
    cards.append(item);
  }
  parts.push(cards, paragraph(words.winner(t().seat[trick.winner])));
  const own = trick.cards.find((played) => played.review);
  if (own) parts.push(cardJudgement(own));
  box.replaceChildren(...parts);
}

function cardJudgement(played) {
  const words = t().review;
  const judged = played.review;
  const box = element("div", "review-judged");
  box.append(element("h4", "", words.yourCard(cardWithArticle(played.card))));
  if (judged.costly) box.append(costlyMark());
  if (judged.forced) {
    box.append(paragraph(words.forced));
    return box;
  }
  const label = (option) => (option.card === "mite" ? words.mite : cardChip(option.card));
  const chosen = (option) => option.card === played.card;
  box.append(...judgement(judged, label, chosen, words.cardHeader, words.optionsCaption, words.played));
  return box;
}

/** A decision's options as a table (``label`` names one, ``chosen`` finds South's), then its costs (``amount``
 * says a cost: in chalk lines, or a tarot review's points). */
function judgement(judged, label, chosen, header, captionText, chosenWord, amount = linesValue) {
  const words = t().review;
  const withExpert = judged.options.some((option) => option.expert !== undefined);
  const withDd = judged.options.some((option) => option.dd !== undefined);
  const bestExpert = withExpert ? Math.max(...judged.options.map((option) => option.expert)) : null;
  const bestDd = withDd ? Math.max(...judged.options.map((option) => option.dd)) : null;
  const table = element("table", "review-options");
  const caption = element("caption", "", captionText);
  const head = element("tr");
  for (const text of [header, ...(withExpert ? [words.expertHeader] : []), ...(withDd ? [words.ddHeader] : [])]) {
    const cell = element("th", "", text);
    cell.scope = "col";
    head.append(cell);
  }
  const thead = element("thead");
  thead.append(head);
  const body = element("tbody");
  for (const option of judged.options) {
    const row = element("tr");
    const name = element("th");
    name.scope = "row";
    name.append(label(option), chosen(option) ? ` (${chosenWord})` : "");
    row.append(name);
    if (withExpert) row.append(valueCell(option.expert, option.expert === bestExpert));
    if (withDd) row.append(valueCell(option.dd, option.dd === bestDd));
    if (chosen(option)) row.className = "review-played";
    body.append(row);
  }
  table.append(caption, thead, body);
  const parts = [table];
  if (!withExpert) parts.push(paragraph(words.unsolved));
  else parts.push(paragraph(judged.cost > 0 ? words.cost(amount(judged.cost, false)) : words.noCost));
  if (withDd) parts.push(paragraph(judged.dd_cost > 0 ? words.ddCost(amount(judged.dd_cost, false)) : words.noDdCost));
  return parts;
}

function valueCell(value, best) {
  const cell = element("td", best ? "review-best" : "", decimal(value));
  if (best) cell.append(` (${t().review.best})`);
  return cell;
}

// ---------------------------------------------------------------- coucou

/** Seat ``seat`` as the coucou table names it: "Toi" for seat 1, else "Joueur n". */
function coucouSeat(seat) {
  const words = t().coucou;
  return seat === 1 ? words.you : words.player(seat);
}

function drawCoucou(root) {
  const words = t().review.coucou;
  const review = page.review;
  const parts = [
    paragraph(words.summary(review.winner === 1, review.place, review.players, review.score), "review-summary"),
    paragraph(words.explain),
    paragraph(review.revealed ? words.revealed : words.hidden, review.revealed ? "" : "review-hidden"),
    paragraph(words.differences(review.cost)),
  ];
  const coups = element("ol", "review-coups");
  coups.setAttribute("aria-label", words.coupsLabel);
  for (const coup of review.coups) coups.append(coucouCoup(coup));
  parts.push(coups);
  root.replaceChildren(...parts);
}

function coucouCoup(coup) {
  const words = t().review.coucou;
  const item = element("li", "review-deal panel");
  const heading = element("h2", "", words.coupTitle(coup.number));
  heading.id = `review-coup-${coup.number}`;
  item.setAttribute("aria-labelledby", heading.id);
  item.append(heading);
  const decision = coup.decision;
  const aqc = page.review.variant === "as-qui-court";
  if (!decision) item.append(paragraph(aqc ? words.youDealtAqc : words.youDealt));
  else {
    const box = element("div", "review-judged");
    const said = t().coucou.said;
    box.append(paragraph(words.youSaid(cardWithArticle(decision.card), said[decision.choice], decision.outcome)));
    if (decision.cost > 0) {
      const mark = element("strong", "review-costly", words.notExperts);
      box.append(mark, paragraph(words.expertSaid(said[decision.expert_choice])));
    } else box.append(paragraph(words.expertToo));
    if (decision.other) {
      box.append(paragraph(words.lost(decision.lost)));
      const other = decision.other;
      box.append(paragraph(words.other(said[other.choice], cardWithArticle(other.final), other.lost)));
    }
    item.append(box);
  }
  const show = coup.showdown;
  const cards = element("ul", "review-hands");
  cards.setAttribute("aria-label", words.showdownLabel(coup.number));
  for (const [seat, card] of Object.entries(show.cards)) {
    const line = element("li");
    line.append(element("span", "review-seat", `${coucouSeat(Number(seat))}${t().review.colon}`), cardChip(card));
    cards.append(line);
  }
  item.append(element("h3", "", words.showdownTitle), cards);
  if (show.stock) item.append(paragraph(words.stock(cardWithArticle(show.stock))));
  if (show.kings_shown?.length) item.append(paragraph(words.kingsShown(show.kings_shown.map(coucouSeat).join(", "))));
  const losers = show.losers.map(coucouSeat);
  const lowest = t().coucou.rankPhrase(show.lowest, t().coucou.rankName[show.lowest]);
  item.append(paragraph(losers.length ? words.lowest(lowest, losers.join(", ")) : words.allEqual));
  return item;
}

// ---------------------------------------------------------------- tarot

/** A tarot card as text: a plain card as the others, a trump as its number, the Excuse; its name spoken. */
function tarotChip(code) {
  const suit = code.slice(-1);
  if (suit !== "T" && suit !== "X") return cardChip(code);
  const chip = element("span", `review-card suit-${suit}`, suit === "X" ? "Exc" : `${code.slice(0, -1)}ᵀ`);
  chip.setAttribute("role", "img");
  chip.setAttribute("aria-label", cardName(code));
  return chip;
}

function points(value, signed = true) {
  return t().review.tarot.points(decimal(value, signed), Math.abs(value));
}

/** South's judged decisions of a tarot deal in the order made, each as [what it was, its review]. */
function tarotDecisions(deal) {
  const words = t().review.tarot;
  const contract = (name) => (name === "pass" ? words.pass : t().tarot.contract[name]);
  const found = [];
  for (const bid of deal.bids) {
    if (!bid.review) continue;
    found.push([bid.call ? words.call(cardWithArticle(bid.call)) : words.bid(contract(bid.bid)), bid.review]);
  }
  if (deal.ecart?.review) found.push([words.ecart, deal.ecart.review]);
  for (const made of deal.announcements) {
    if (!made.review) continue;
    const kind = made.announcement.replace(/^no-/, "");
    const done = !made.announcement.startsWith("no-");
    if (kind === "poignee") found.push([words.poignee(done ? String(made.cards.length) : "none"), made.review]);
    else if (kind === "chelem") found.push([words.chelem(done), made.review]);
    else found.push([words.misere(kind, done), made.review]);
  }
  deal.tricks.forEach((trick, index) => {
    const own = trick.cards.find((played) => played.review);
    if (own) found.push([words.card(index + 1, cardWithArticle(own.card)), own.review]);
  });
  return found;
}

/** The name of an option of a tarot decision (its key says which decision it is). */
function tarotOption(option) {
  const words = t().review.tarot;
  if (option.bid) return option.bid === "pass" ? words.pass : t().tarot.contract[option.bid];
  if (option.call) return tarotChip(option.call);
  if (option.card) return tarotChip(option.card);
  if (option.ecart) {
    const cards = element("span");
    cards.append(...option.ecart.split(",").map(tarotChip));
    return cards;
  }
  if (option.poignee) return option.poignee === "none" ? words.none : words.atouts(option.poignee);
  return (option.misere ?? option.chelem) === "yes" ? words.yes : words.no;
}

function drawTarot(root) {
  const words = t().review.tarot;
  const review = page.review;
  const played = review.deals.filter((deal) => deal.result?.outcome === "played").length;
  const parts = [
    paragraph(words.summary(review.winner === review.seat, review.score, played), "review-summary"),
    paragraph(words.explain),
  ];
  if (!review.revealed) parts.push(paragraph(words.hidden, "review-hidden"));
  parts.push(paragraph(words.totalCost(points(review.cost, false))));

  const costliest = element("section", "review-costliest panel");
  costliest.setAttribute("aria-labelledby", "review-costliest-title");
  const heading = element("h2", "", words.costliestTitle);
  heading.id = "review-costliest-title";
  costliest.append(heading);
  const marked = review.deals
    .flatMap((deal) => tarotDecisions(deal).map(([what, judged], index) => ({ deal, what, judged, index })))
    .filter((decision) => decision.judged.costly)
    .sort((a, b) => b.judged.cost - a.judged.cost);
  if (!marked.length) costliest.append(paragraph(words.noCostly));
  else {
    const list = element("ol");
    for (const { deal, what, judged, index } of marked) {
      const item = element("li");
      item.append(paragraph(words.costlyItem(deal.number, what, points(judged.cost, false))));
      // The button opens the decision where it sits in its deal, and moves the focus to it.
      const button = element("button", "button small", t().review.see(words.where(deal.number, what)));
      button.type = "button";
      button.addEventListener("click", () => {
        const details = document.getElementById(tarotDecisionId(deal.number, index));
        details.open = true;
        details.querySelector("summary").focus();
      });
      item.append(button);
      list.append(item);
    }
    costliest.append(list);
  }
  parts.push(costliest);

  const deals = element("ol", "review-coups");
  deals.setAttribute("aria-label", words.dealsLabel);
  for (const deal of review.deals) deals.append(tarotDeal(deal, review.deals.length));
  parts.push(deals);
  root.replaceChildren(...parts);
}

function tarotDeal(deal, total) {
  const words = t().review.tarot;
  const item = element("li", "review-deal panel");
  const heading = element("h2", "", words.dealTitle(deal.number, total));
  heading.id = `review-deal-${deal.number}`;
  item.setAttribute("aria-labelledby", heading.id);
  item.append(heading);
  const result = deal.result;
  if (deal.petit_sec) item.append(paragraph(words.petitSec(Object.keys(deal.petit_sec).map((seat) => t().seat[seat]).join(", "))));
  else if (!result.taker) item.append(paragraph(words.nobodyTook));
  else {
    const score = result.scores[page.review.seat];
    item.append(paragraph(words.taken(t().seat[result.taker], t().tarot.contract[result.contract], result.result === "made", score)));
  }
  const hands = element("ul", "review-hands");
  for (const [seat, cards] of Object.entries(deal.hands)) {
    const line = element("li");
    const name = seat === page.review.seat ? words.yourHand : t().seat[seat];
    line.append(element("span", "review-seat", `${name}${t().review.colon}`), ...cards.map(tarotChip));
    hands.append(line);
  }
  if (deal.chien) {
    const line = element("li");
    line.append(element("span", "review-seat", `${words.chien}${t().review.colon}`), ...deal.chien.map(tarotChip));
    hands.append(line);
  }
  if (hands.childElementCount) item.append(hands);
  const decisions = tarotDecisions(deal);
  if (!decisions.length) return item;
  const list = element("ol", "review-bids");
  list.setAttribute("aria-label", words.decisionsLabel(deal.number));
  decisions.forEach(([what, judged], index) => {
    const entry = element("li", "review-judged");
    const details = element("details");
    details.id = tarotDecisionId(deal.number, index);
    const summary = element("summary", "", what);
    if (judged.costly) summary.append(" ", costlyMark());
    details.append(summary);
    if (judged.forced) details.append(paragraph(t().review.forced));
    else {
      const kind = Object.keys(judged.options[0]).find((key) => key !== "expert" && key !== "dd");
      const chosen = (option) => option[kind] === judged.choice;
      details.append(...judgement(judged, tarotOption, chosen, words.header[kind], words.caption, t().review.chosen, points));
    }
    entry.append(details);
    list.append(entry);
  });
  item.append(list);
  return item;
}

function tarotDecisionId(deal, index) {
  return `review-decision-${deal}-${index}`;
}
