// Player-facing words, French first and English second, and the sentences the live
// region speaks. The choice of language is remembered in localStorage.

const STORAGE_KEY = "couyon.language";

const STRINGS = {
  fr: {
    skip: "Aller au contenu",
    homeLink: "Couyon, accueil",
    navLabel: "Navigation principale",
    navTable: "Table",
    navRules: "Règles",
    navLeaderboard: "Classement",
    navSettings: "Réglages",
    homeTitle: "Une table de couyon, tout de suite",
    homeLead:
      "Vingt-quatre cartes, quatre joueurs, deux camps : tu joues Sud, Nord est ton partenaire. Efface tes cinq lignes de craie avant les autres.",
    freeTitle: "Partie libre",
    freeText: "Une nouvelle donne, contre trois joueurs simulés.",
    newGame: "Nouvelle partie",
    resumeGame: "Reprendre la partie",
    dailyTitle: "Le défi du jour",
    dailyText: "Les mêmes cartes pour tout le monde aujourd'hui. Fais mieux que les autres avec le même jeu.",
    playDaily: "Jouer le défi",
    resumeDaily: "Reprendre le défi",
    dailyDone: "Défi du jour joué : tu peux rejouer ses donnes hors classement.",
    replayDaily: "Rejouer hors classement",
    dailyNext: (h, m) => `Nouveau défi dans ${h} h ${String(m).padStart(2, "0")} min.`,
    dailyTimeLeft: (h, m) => `Encore ${h} h ${String(m).padStart(2, "0")} min pour le jouer.`,
    dailyUnavailable: "Le défi du jour n'est pas joignable pour le moment.",
    moreTitle: "Et aussi",
    linkRules: "Les règles du couyon",
    linkLeaderboard: "Le classement",
    linkSettings: "Langue, vitesse et nom",
    linkGameRules: "Règles, conseils et questions",
    otherGamesTitle: "Les autres jeux",
    gameChoice: "Quel jeu",
    tableOf: (game) => `La table : ${game}`,
    rulesUnavailable: "Les règles n'ont pas pu être chargées. Réessaie dans un instant.",
    tableTitle: "La table",
    centreTitle: "Le centre de la table",
    trickLabel: "Pli en cours",
    dropHint: "Dépose ta carte ici",
    sideLabel: "Score et informations",
    chalkTitle: "L'ardoise",
    dealInfoTitle: "La donne",
    lastTrick: "Revoir le dernier pli",
    lastTrickTitle: "Le dernier pli",
    close: "Fermer",
    actionTitle: "Ton jeu",
    take: "Prendre",
    pass: "Passer",
    handLabel: "Ta main",
    leaderboardTitle: "Le classement",
    boardChoice: "Quel classement",
    boardDaily: "Défi du jour",
    boardRegion: "Les scores",
    boardFree: "Parties libres",
    dayPrevious: "Jour précédent",
    dayNext: "Jour suivant",
    settingsTitle: "Réglages",
    languageLegend: "Langue",
    speedLegend: "Vitesse des joueurs simulés",
    speedSlow: "Lente",
    speedNormal: "Normale",
    speedFast: "Rapide",
    nameLegend: "Ton nom au classement",
    nameLabel: "Nom (1 à 24 caractères)",
    saveName: "Enregistrer",
    nameSaved: "Nom enregistré.",
    continue: "Continuer",
    seeResult: "Voir le résultat",
    seeLeaderboard: "Voir le classement",
    footer: "Couyon, jeu de cartes d'Ardenne et de Wallonie. Aucune publicité, aucun compte.",
    seat: { S: "Sud", W: "Ouest", N: "Nord", E: "Est" },
    seatYou: "Sud (toi)",
    seatPartner: "partenaire",
    seatOpponent: "adversaire",
    team: { NS: "Nous", WE: "Eux" },
    teamLong: { NS: "Nord et Sud (nous)", WE: "Ouest et Est (eux)" },
    suit: { C: "trèfle", D: "carreau", H: "cœur", S: "pique" },
    rankLetter: { 9: "9", 10: "10", J: "V", Q: "D", K: "R", A: "A" },
    rankName: { 9: "neuf", 10: "dix", J: "valet", Q: "dame", K: "roi", A: "as" },
    cardName(rank, suit) {
      return `${this.rankName[rank]} de ${this.suit[suit]}`;
    },
    cardWithArticle(rank, suit) {
      const name = this.cardName(rank, suit);
      if (rank === "A") return `l'${name}`;
      return `${rank === "Q" ? "la" : "le"} ${name}`;
    },
    cardsInHand: (n) => (n === 0 ? "aucune carte" : n === 1 ? "1 carte" : `${n} cartes`),
    dealer: "Donneur",
    toMove: "à jouer",
    taker: "preneur",
    saidTake: "Prend",
    saidPass: "Passe",
    proposalLabel: (card) => `Retourne : ${card}`,
    talonLeft: (n) => (n === 1 ? "1 carte au talon" : `${n} cartes au talon`),
    trumpIs: (suit) => `Atout : ${suit}`,
    trumpProposed: (suit) => `Atout proposé : ${suit}`,
    factDeal: "Donne",
    factDealer: "Donneur",
    factTrump: "Atout",
    factTaker: "Preneur",
    factStake: "Enjeu",
    factPoints: "Points",
    stakeLines: (n) => (n === 1 ? "1 ligne" : `${n} lignes`),
    noTrumpYet: "pas encore choisi",
    noTakerYet: "personne",
    linesLeft: (n) => (n === 0 ? "plus aucune ligne" : n === 1 ? "1 ligne" : `${n} lignes`),
    chalkSummary: (us, them) => `Nous : ${us}. Eux : ${them}.`,
    chalkHole: "La craie est dans le trou : cette donne compte double (deux lignes).",
    promptBid: (card) => `Prends-tu ${card} comme atout ?`,
    promptPlay: "À toi de jouer : choisis une carte soulevée.",
    promptWait: (seat) => `${seat} réfléchit…`,
    promptOver: "La partie est finie.",
    notPlayable: "Cette carte ne peut pas être jouée maintenant.",
    // Live region sentences.
    sayBid: (seat, take, suit, isYou) =>
      isYou ? (take ? `Tu prends, atout ${suit}.` : "Tu passes.") : take ? `${seat} prend, atout ${suit}.` : `${seat} passe.`,
    sayProposal: (card) => `Personne n'a pris. Nouvelle retourne : ${card}.`,
    sayCard: (seat, card, isYou) => (isYou ? `Tu joues ${card}.` : `${seat} joue ${card}.`),
    sayTrick: (seat, points, isYou) =>
      `${isYou ? "Tu remportes" : `${seat} remporte`} le pli${points ? ` (${points} point${points > 1 ? "s" : ""})` : ""}.`,
    sayDealStart: (number, dealer, card) => `Donne ${number}. ${dealer} distribue. Retourne : ${card}.`,
    sayYourTurnBid: "À toi : prendre ou passer ?",
    sayYourTurnPlay: "À toi de jouer.",
    sayGameOver: (won, score) => `Partie terminée. ${won ? "Vous gagnez" : "Ouest et Est gagnent"}, ${score} points.`,
    trumpCard: (card) => `${card}, atout`,
    trumpMark: "atout",
    // The couyon de Malmedy's table (js/games/malmedy.js).
    malmedy: {
      suitTitle: { C: "Trèfle", D: "Carreau", H: "Cœur", S: "Pique" },
      trumpGroup: "Choisis l'atout",
      mite: "Annoncer mite",
      miteHelp: "Ta dame de pique devient un atout, juste sous l'as. Le camp qui gagne la donne efface une ligne de plus.",
      contra: "Contra",
      contraHelp: "Tu paries que ton camp gagnera la donne : une ligne de plus en jeu.",
      recontra: "Recontra",
      recontraHelp: "Tu maintiens ta mite : encore une ligne de plus en jeu.",
      pass: "Passer",
      promptTrump: "Choisis l'atout d'après tes trois premières cartes.",
      promptContra: (seat) => `${seat} annonce mite. Contra ou passe ?`,
      promptRecontra: (seat) => `${seat} dit contra. Recontra ou passe ?`,
      promptMite: "À toi de jouer. Avec ta dame de pique, tu peux d'abord annoncer mite.",
      yourTurnTrump: "À toi : choisis l'atout.",
      yourTurnContra: "À toi : contra ou passe ?",
      yourTurnRecontra: "À toi : recontra ou passe ?",
      yourTurnMite: "À toi de jouer. Tu peux annoncer mite avant ta carte.",
      chooserChip: (chosen) => (chosen ? "choix" : "choisit"),
      miteChip: "mite",
      contraChip: "contra",
      recontraChip: "recontra",
      saidMite: "Mite\u00a0!",
      saidContra: "Contra\u00a0!",
      saidRecontra: "Recontra\u00a0!",
      saidPass: "Passe",
      blindLabel: "Le blind : quatre cartes cachées, qui ne comptent pour personne",
      blindCaption: "Blind",
      choosing: (seat, isYou) => (isYou ? "À toi de choisir l'atout" : `${seat} choisit l'atout…`),
      sayTrump: (seat, suit, isYou) => (isYou ? `Tu choisis l'atout : ${suit}.` : `${seat} choisit l'atout : ${suit}.`),
      sayMite: (seat, isYou) => (isYou ? "Tu annonces mite." : `${seat} annonce mite.`),
      sayAnswer: (seat, answer, isYou) =>
        answer === "pass"
          ? isYou
            ? "Tu passes."
            : `${seat} passe.`
          : isYou
            ? `Tu dis ${answer}.`
            : `${seat} dit ${answer}.`,
      sayDealStart: (number, dealer, chooser, isYou) =>
        `Donne ${number}. ${dealer} distribue ; ${isYou ? "tu choisiras" : `${chooser} choisira`} l'atout.`,
      factChooser: "Atout choisi par",
      factCalls: "Annonces",
      noCalls: "aucune",
      callsMite: (seat) => `mite (${seat})`,
      factStake: "Enjeu",
      stake: (n) => `${n} ligne${n > 1 ? "s" : ""}, une de plus au capot`,
      factTricks: "Plis",
      made: (seat, suit) => `${seat} a choisi ${suit} et son camp gagne la donne.`,
      failed: (seat, suit) => `${seat} a choisi ${suit} mais son camp perd la donne : une couille pour lui.`,
      capot: (team) => (team === "NS" ? "Capot : vous avez fait les cinq plis." : "Capot : Ouest et Est ont fait les cinq plis."),
      miteSaid: (seat, contra) =>
        `Mite de ${seat}${contra === 2 ? ", contra et recontra" : contra === 1 ? ", contra" : ", sans contra"}.`,
      tricksLine: (us, them) => `Plis : nous ${us}, eux ${them}.`,
    },
    // Deal summary.
    dealTitle: (n) => `Fin de la donne ${n}`,
    outcomeMade: (taker) => `${taker} a pris et passe.`,
    outcomeFailed: (taker) => `${taker} a pris et manque.`,
    outcomeTie: "Égalité parfaite : la craie est dans le trou. La prochaine donne compte double.",
    outcomeRedeal: "Personne n'a pris : on redonne.",
    pointsHeader: "Points",
    linesHeader: "Lignes",
    teamHeader: "Camp",
    movedHeader: "Mouvement",
    linesMoved: (d) => (d === 0 ? "inchangé" : d < 0 ? `${-d} effacée${d < -1 ? "s" : ""}` : `${d} ajoutée${d > 1 ? "s" : ""}`),
    takerWas: (taker, suit) => `Preneur : ${taker}, atout ${suit}.`,
    doubled: "Donne double.",
    // End of game.
    endWon: "Gagné !",
    endLost: "Perdu, mais la défaite compte.",
    endScore: (score) => `Ton score : ${score} points.`,
    endDeals: (n) => `Partie en ${n} donne${n > 1 ? "s" : ""}.`,
    endLines: (us, them) => `Lignes restantes : nous ${us}, eux ${them}.`,
    endRank: (board, rank) =>
      `Tu es ${rank}${rank === 1 ? "er" : "e"} au classement ${board === "daily" ? "du défi du jour" : "des parties libres"}.`,
    endNotRanked: "Cette partie n'entre pas au classement.",
    endRankPending: "Ta partie est en cours de vérification ; elle paraîtra ensuite au classement.",
    shareTitle: "À partager",
    shareText: (game, day, won, score, deals, us, them) =>
      `${game}, défi du ${day} : partie ${won ? "gagnée" : "perdue"}, ${score} points en ${deals} donne${deals > 1 ? "s" : ""}. Lignes restantes : nous ${us}, eux ${them}.`,
    copyShare: "Copier le texte",
    copied: "Texte copié.",
    copyFailed: "Copie impossible : sélectionne le texte à la main.",
    // Leaderboard.
    rankHeader: "Rang",
    nameHeader: "Nom",
    scoreHeader: "Score",
    dealsHeader: "Donnes",
    whenHeader: "Fin de partie",
    anonymous: "Anonyme",
    boardEmpty: "Personne n'a encore fini de partie ici.",
    boardCaptionDaily: (day) => `Défi du ${day}`,
    boardCaptionFree: "Parties libres",
    lastTrickEmpty: "Aucun pli n'a encore été joué dans cette donne.",
    trickWonBy: (seat) => `Remporté par ${seat}.`,
    playedBy: (seat, card) => `${seat} : ${card}`,
    errorGeneric: "Le serveur ne répond pas comme prévu. Réessaie dans un instant.",
    errorLost: "Cette partie est introuvable. Commence une nouvelle partie.",
    errorBusy: "Doucement : trop de coups d'un coup. Réessaie dans quelques secondes.",
    noGame: "Aucune partie en cours : commence-en une.",
    dateFormat: "fr-BE",
  },
  en: {
    skip: "Skip to content",
    homeLink: "Couyon, home",
    navLabel: "Main navigation",
    navTable: "Table",
    navRules: "Rules",
    navLeaderboard: "Leaderboard",
    navSettings: "Settings",
    homeTitle: "A couyon table, right now",
    homeLead:
      "Twenty-four cards, four players, two teams: you play South, North is your partner. Erase your five chalk lines before the others.",
    freeTitle: "Free game",
    freeText: "A fresh deal against three simulated players.",
    newGame: "New game",
    resumeGame: "Resume the game",
    dailyTitle: "Today's challenge",
    dailyText: "The same cards for everyone today. Do better than the others with the same hands.",
    playDaily: "Play the challenge",
    resumeDaily: "Resume the challenge",
    dailyDone: "Today's challenge played: you may replay its deals, unranked.",
    replayDaily: "Replay unranked",
    dailyNext: (h, m) => `New challenge in ${h} h ${String(m).padStart(2, "0")} min.`,
    dailyTimeLeft: (h, m) => `${h} h ${String(m).padStart(2, "0")} min left to play it.`,
    dailyUnavailable: "Today's challenge cannot be reached right now.",
    moreTitle: "More",
    linkRules: "The rules of couyon",
    linkLeaderboard: "The leaderboard",
    linkSettings: "Language, speed and name",
    linkGameRules: "Rules, tips and questions",
    otherGamesTitle: "Other games",
    gameChoice: "Which game",
    tableOf: (game) => `The table: ${game}`,
    rulesUnavailable: "The rules could not be loaded. Try again in a moment.",
    tableTitle: "The table",
    centreTitle: "The middle of the table",
    trickLabel: "Current trick",
    dropHint: "Drop your card here",
    sideLabel: "Score and information",
    chalkTitle: "The slate",
    dealInfoTitle: "This deal",
    lastTrick: "Look at the last trick",
    lastTrickTitle: "The last trick",
    close: "Close",
    actionTitle: "Your play",
    take: "Take",
    pass: "Pass",
    handLabel: "Your hand",
    leaderboardTitle: "The leaderboard",
    boardChoice: "Which leaderboard",
    boardDaily: "Today's challenge",
    boardRegion: "The scores",
    boardFree: "Free games",
    dayPrevious: "Previous day",
    dayNext: "Next day",
    settingsTitle: "Settings",
    languageLegend: "Language",
    speedLegend: "Speed of the simulated players",
    speedSlow: "Slow",
    speedNormal: "Normal",
    speedFast: "Fast",
    nameLegend: "Your name on the leaderboard",
    nameLabel: "Name (1 to 24 characters)",
    saveName: "Save",
    nameSaved: "Name saved.",
    continue: "Continue",
    seeResult: "See the result",
    seeLeaderboard: "See the leaderboard",
    footer: "Couyon, the card game of the Ardennes and Wallonia. No ads, no account.",
    seat: { S: "South", W: "West", N: "North", E: "East" },
    seatYou: "South (you)",
    seatPartner: "partner",
    seatOpponent: "opponent",
    team: { NS: "Us", WE: "Them" },
    teamLong: { NS: "North and South (us)", WE: "West and East (them)" },
    suit: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
    rankLetter: { 9: "9", 10: "10", J: "J", Q: "Q", K: "K", A: "A" },
    rankName: { 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king", A: "ace" },
    cardName(rank, suit) {
      return `${this.rankName[rank]} of ${this.suit[suit]}`;
    },
    cardWithArticle(rank, suit) {
      return `the ${this.cardName(rank, suit)}`;
    },
    cardsInHand: (n) => (n === 0 ? "no cards" : n === 1 ? "1 card" : `${n} cards`),
    dealer: "Dealer",
    toMove: "to play",
    taker: "taker",
    saidTake: "Takes",
    saidPass: "Passes",
    proposalLabel: (card) => `Turned up: ${card}`,
    talonLeft: (n) => (n === 1 ? "1 card in the talon" : `${n} cards in the talon`),
    trumpIs: (suit) => `Trumps: ${suit}`,
    trumpProposed: (suit) => `Trumps offered: ${suit}`,
    factDeal: "Deal",
    factDealer: "Dealer",
    factTrump: "Trumps",
    factTaker: "Taker",
    factStake: "Stake",
    factPoints: "Points",
    stakeLines: (n) => (n === 1 ? "1 line" : `${n} lines`),
    noTrumpYet: "not chosen yet",
    noTakerYet: "nobody",
    linesLeft: (n) => (n === 0 ? "no lines left" : n === 1 ? "1 line" : `${n} lines`),
    chalkSummary: (us, them) => `Us: ${us}. Them: ${them}.`,
    chalkHole: "The chalk is in the hole: this deal counts double (two lines).",
    promptBid: (card) => `Do you take ${card} as trumps?`,
    promptPlay: "Your turn: choose one of the raised cards.",
    promptWait: (seat) => `${seat} is thinking…`,
    promptOver: "The game is over.",
    notPlayable: "This card cannot be played now.",
    sayBid: (seat, take, suit, isYou) =>
      isYou ? (take ? `You take, ${suit} are trumps.` : "You pass.") : take ? `${seat} takes, ${suit} are trumps.` : `${seat} passes.`,
    sayProposal: (card) => `Nobody took. Next card turned up: ${card}.`,
    sayCard: (seat, card, isYou) => (isYou ? `You play ${card}.` : `${seat} plays ${card}.`),
    sayTrick: (seat, points, isYou) =>
      `${isYou ? "You win" : `${seat} wins`} the trick${points ? ` (${points} point${points > 1 ? "s" : ""})` : ""}.`,
    sayDealStart: (number, dealer, card) => `Deal ${number}. ${dealer} deals. Turned up: ${card}.`,
    sayYourTurnBid: "Your turn: take or pass?",
    sayYourTurnPlay: "Your turn to play.",
    sayGameOver: (won, score) => `Game over. ${won ? "You win" : "West and East win"}, ${score} points.`,
    trumpCard: (card) => `${card}, trump`,
    trumpMark: "trump",
    malmedy: {
      suitTitle: { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" },
      trumpGroup: "Name trumps",
      mite: "Call mite",
      miteHelp: "Your queen of spades becomes a trump, just below the ace. The team that wins the deal erases one more line.",
      contra: "Contra",
      contraHelp: "You bet your team will win the deal: one more line at stake.",
      recontra: "Recontra",
      recontraHelp: "You stand by your mite: yet another line at stake.",
      pass: "Pass",
      promptTrump: "Name trumps from your first three cards.",
      promptContra: (seat) => `${seat} calls mite. Contra or pass?`,
      promptRecontra: (seat) => `${seat} says contra. Recontra or pass?`,
      promptMite: "Your turn. With the queen of spades you may call mite first.",
      yourTurnTrump: "Your turn: name trumps.",
      yourTurnContra: "Your turn: contra or pass?",
      yourTurnRecontra: "Your turn: recontra or pass?",
      yourTurnMite: "Your turn to play. You may call mite before your card.",
      chooserChip: (chosen) => (chosen ? "chose" : "chooses"),
      miteChip: "mite",
      contraChip: "contra",
      recontraChip: "recontra",
      saidMite: "Mite!",
      saidContra: "Contra!",
      saidRecontra: "Recontra!",
      saidPass: "Pass",
      blindLabel: "The blind: four hidden cards that count for nobody",
      blindCaption: "Blind",
      choosing: (seat, isYou) => (isYou ? "Your turn to name trumps" : `${seat} is naming trumps…`),
      sayTrump: (seat, suit, isYou) => (isYou ? `You name ${suit} as trumps.` : `${seat} names ${suit} as trumps.`),
      sayMite: (seat, isYou) => (isYou ? "You call mite." : `${seat} calls mite.`),
      sayAnswer: (seat, answer, isYou) =>
        answer === "pass"
          ? isYou
            ? "You pass."
            : `${seat} passes.`
          : isYou
            ? `You say ${answer}.`
            : `${seat} says ${answer}.`,
      sayDealStart: (number, dealer, chooser, isYou) =>
        `Deal ${number}. ${dealer} deals; ${isYou ? "you will name" : `${chooser} will name`} trumps.`,
      factChooser: "Trumps named by",
      factCalls: "Calls",
      noCalls: "none",
      callsMite: (seat) => `mite (${seat})`,
      factStake: "Stake",
      stake: (n) => `${n} line${n > 1 ? "s" : ""}, one more for a capot`,
      factTricks: "Tricks",
      made: (seat, suit) => `${seat} named ${suit} and that team wins the deal.`,
      failed: (seat, suit) => `${seat} named ${suit} but that team loses the deal: a couille for it.`,
      capot: (team) => (team === "NS" ? "Capot: you took all five tricks." : "Capot: West and East took all five tricks."),
      miteSaid: (seat, contra) =>
        `Mite by ${seat}${contra === 2 ? ", contra and recontra" : contra === 1 ? ", contra" : ", no contra"}.`,
      tricksLine: (us, them) => `Tricks: us ${us}, them ${them}.`,
    },
    dealTitle: (n) => `End of deal ${n}`,
    outcomeMade: (taker) => `${taker} took and made it.`,
    outcomeFailed: (taker) => `${taker} took and failed.`,
    outcomeTie: "A perfect tie: the chalk is in the hole. The next deal counts double.",
    outcomeRedeal: "Nobody took: the cards are dealt again.",
    pointsHeader: "Points",
    linesHeader: "Lines",
    teamHeader: "Team",
    movedHeader: "Change",
    linesMoved: (d) => (d === 0 ? "unchanged" : d < 0 ? `${-d} erased` : `${d} added`),
    takerWas: (taker, suit) => `Taker: ${taker}, ${suit} trumps.`,
    doubled: "Double stake.",
    endWon: "You won!",
    endLost: "Lost, but a defeat still counts.",
    endScore: (score) => `Your score: ${score} points.`,
    endDeals: (n) => `Game over in ${n} deal${n > 1 ? "s" : ""}.`,
    endLines: (us, them) => `Lines left: us ${us}, them ${them}.`,
    endRank: (board, rank) => `You are number ${rank} on the ${board === "daily" ? "daily challenge" : "free games"} leaderboard.`,
    endNotRanked: "This game does not go on the leaderboard.",
    endRankPending: "Your game is being checked; it will then appear on the leaderboard.",
    shareTitle: "To share",
    shareText: (game, day, won, score, deals, us, them) =>
      `${game}, challenge of ${day}: game ${won ? "won" : "lost"}, ${score} points in ${deals} deal${deals > 1 ? "s" : ""}. Lines left: us ${us}, them ${them}.`,
    copyShare: "Copy the text",
    copied: "Text copied.",
    copyFailed: "Cannot copy: select the text by hand.",
    rankHeader: "Rank",
    nameHeader: "Name",
    scoreHeader: "Score",
    dealsHeader: "Deals",
    whenHeader: "Finished",
    anonymous: "Anonymous",
    boardEmpty: "Nobody has finished a game here yet.",
    boardCaptionDaily: (day) => `Challenge of ${day}`,
    boardCaptionFree: "Free games",
    lastTrickEmpty: "No trick has been played in this deal yet.",
    trickWonBy: (seat) => `Won by ${seat}.`,
    playedBy: (seat, card) => `${seat}: ${card}`,
    errorGeneric: "The server is not answering as expected. Try again in a moment.",
    errorLost: "This game cannot be found. Start a new game.",
    errorBusy: "Easy there: too many moves at once. Try again in a few seconds.",
    noGame: "No game in progress: start one.",
    dateFormat: "en-GB",
  },
};

function storedLanguage() {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === "en" || value === "fr" ? value : "fr";
  } catch {
    return "fr";
  }
}

let language = storedLanguage();

export function currentLanguage() {
  return language;
}

export function t() {
  return STRINGS[language];
}

export function setLanguage(value) {
  language = value === "en" ? "en" : "fr";
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private browsing may refuse storage; the choice then lasts for this page only.
  }
  applyStaticTexts();
}

/** Fill every element marked data-i18n / data-i18n-label with the current language. */
export function applyStaticTexts() {
  const words = t();
  document.documentElement.lang = language;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = words[element.dataset.i18n];
  }
  for (const element of document.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", words[element.dataset.i18nLabel]);
  }
  for (const block of document.querySelectorAll("[data-lang-block]")) {
    block.hidden = block.dataset.langBlock !== language;
  }
}

/** Split a contract card code like "10H" into its rank and suit. */
export function parseCard(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export function cardName(code) {
  const { rank, suit } = parseCard(code);
  return t().cardName(rank, suit);
}

export function cardWithArticle(code) {
  const { rank, suit } = parseCard(code);
  return t().cardWithArticle(rank, suit);
}

export function formatDay(isoDay) {
  const [year, month, day] = isoDay.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day)).toLocaleDateString(t().dateFormat, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}
