// Cards drawn by the page: rank and suit symbol in the corners, a large symbol or a
// framed court letter in the middle. No images; the suit is always shown by its symbol
// (red and black only add to it).

import { parseCard, t, cardName } from "./i18n.js";

// U+FE0E asks for the text (not emoji) presentation of the suit symbols.
const SYMBOLS = { C: "♣\uFE0E", D: "♦\uFE0E", H: "♥\uFE0E", S: "♠\uFE0E" };
const COURTS = new Set(["J", "N", "Q", "K"]);

export function suitSymbol(suit) {
  return SYMBOLS[suit];
}

// Display order of a hand: suits alternate black and red, strongest rank first.
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
export const RANK_ORDER = { A: 0, K: 1, Q: 2, J: 3, 10: 4, 9: 5 };

/** Compare two cards for showing a hand: by suit (black and red alternating), then strongest first. */
export function byHandOrder(a, b) {
  const x = parseCard(a);
  const y = parseCard(b);
  return SUIT_ORDER[x.suit] - SUIT_ORDER[y.suit] || RANK_ORDER[x.rank] - RANK_ORDER[y.rank];
}

function span(className) {
  const element = document.createElement("span");
  element.className = className;
  return element;
}

// Ranks and suits are drawn by CSS (::before) from data-glyph, so the card's only text is
// its spoken name: speech-control users say what screen readers read ("as de pique").
function glyph(className, text) {
  const element = span(className);
  element.dataset.glyph = text;
  return element;
}

/** The drawn face of a card, hidden from assistive technology (its holder carries the name). */
export function cardFace(code) {
  const { rank, suit } = parseCard(code);
  if (suit === "T" || suit === "X") return trumpFace(suit === "X" ? "★" : rank, suit);
  const letter = t().rankLetter[rank];
  const face = span(`card-face suit-${suit} rank-${rank}`);
  face.setAttribute("aria-hidden", "true");
  for (const position of ["top", "bottom"]) {
    const corner = span(`corner corner-${position}`);
    corner.append(glyph("corner-rank", letter), glyph("corner-suit", SYMBOLS[suit]));
    face.append(corner);
  }
  const middle = span("card-middle");
  if (COURTS.has(rank)) {
    const court = span("court");
    court.append(glyph("court-letter", letter), glyph("court-suit", SYMBOLS[suit]));
    middle.append(court);
  } else if (rank === "A" || rank === "1") {
    middle.append(glyph("pip pip-ace", SYMBOLS[suit]));
  } else {
    middle.append(glyph("pip", SYMBOLS[suit]));
  }
  face.append(middle);
  return face;
}

/** A tarot trump (its number, on a band) or the Excuse (a star): no suit symbol. */
function trumpFace(mark, suit) {
  const face = span(`card-face suit-${suit}`);
  face.setAttribute("aria-hidden", "true");
  for (const position of ["top", "bottom"]) {
    const corner = span(`corner corner-${position}`);
    corner.append(glyph("corner-rank", mark));
    face.append(corner);
  }
  const middle = span("card-middle");
  middle.append(glyph("trump-number", mark));
  face.append(middle);
  return face;
}

/** A card shown on the table (trick, proposal): an image with its spoken name. */
export function tableCard(code, extraClass = "") {
  const card = span(`card ${extraClass}`.trim());
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", cardName(code));
  card.dataset.card = code;
  card.append(cardFace(code));
  return card;
}

/** A face-down card; purely decorative, the seat says how many cards it holds. */
export function cardBack(extraClass = "") {
  const back = span(`card card-back ${extraClass}`.trim());
  back.setAttribute("aria-hidden", "true");
  return back;
}
