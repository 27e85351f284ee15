// The shared player-facing words, French first and English second, and the sentences the live
// region speaks; the lookup t() of the current language. The choice of language is remembered in
// localStorage. A game's own words (js/games/<game>-words.js) and those of the review and the day's
// results (js/review-words.js, js/returning-words.js) load with what says them and join the lookup
// through addWords(); everything the home page, the nav, the settings, the leaderboard and the
// couyon table say is here.

const STORAGE_KEY = "couyon.language";

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st: places in English sentences. */
export function ordinalEn(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th";
  return `${n}${suffix}`;
}

const STRINGS = {
  fr: {
    skip: "Aller au contenu",
    homeLink: "Couyon, accueil",
    navLabel: "Navigation principale",
    navTable: "Table",
    navRules: "Règles",
    navLeaderboard: "Classement",
    navSettings: "Réglages",
    navLevel: "Mon niveau",
    navPuzzles: "Problèmes",
    homeTitle: "Une table de couyon, tout de suite",
    homeLead:
      "Vingt-quatre cartes, quatre joueurs, deux camps : tu joues Sud, Nord est ton partenaire. Efface tes cinq lignes de craie avant les autres.",
    freeTitle: "Partie libre",
    freeText: "Une partie entière contre trois joueurs simulés.",
    newGame: "Nouvelle partie",
    resumeGame: "Reprendre la partie",
    dailyTitle: "Le défi du jour",
    dailyText: "Les mêmes cartes pour tout le monde aujourd'hui. Fais mieux que les autres avec le même jeu.",
    playDaily: "Jouer le défi",
    resumeDaily: "Reprendre le défi",
    dailyDone: "Défi du jour joué : tu peux le rejouer hors classement.",
    replayDaily: "Rejouer hors classement",
    dailyNext: (h, m) => `Nouveau défi dans ${h} h ${String(m).padStart(2, "0")} min.`,
    dailyTimeLeft: (h, m) => `Encore ${h} h ${String(m).padStart(2, "0")} min pour le jouer.`,
    dailyUnavailable: "Le défi du jour n'est pas joignable pour le moment.",
    // Issue 12: the daily's rules, the day's results, the archive and the player's statistics.
    dailyRules:
      "Un seul essai classé par jour. À score égal, celui qui a joué le moins de donnes passe devant, puis celui qui a fini le premier. Le défi change à minuit, heure de Bruxelles.",
    linkResults: "Les résultats du jour et les défis passés",
    linkStats: "Tes statistiques et ta série",
    navResults: "Résultats",
    resultsTitle: "Les résultats du défi",
    statsTitle: "Tes statistiques",
    endResults: "Voir les résultats du jour",
    challengeFriend: "Défier un ami",
    dayBoardTitle: "Le classement de ce jour",
    shareButton: "Partager",
    back: {
      place: (rank) => (rank === 1 ? "1re" : `${rank}e`),
      homeResult: (score, rank, players) =>
        `Ton défi du jour : ${score} points, à la ${rank === 1 ? "1re" : `${rank}e`} place sur ${players}.`,
      homePending: "Ton défi du jour est joué ; il entre au classement dès qu'il est vérifié.",
      betterThan: (percent) => `Mieux que ${percent} % des autres joueurs.`,
    },
    moreTitle: "Et aussi",
    linkRules: "Les règles du couyon",
    linkLeaderboard: "Le classement",
    linkSettings: "Langue, vitesse et nom",
    linkGameRules: "Règles, conseils et questions",
    linkTips: "Conseils et questions fréquentes",
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
    playersLegend: "Nombre de joueurs",
    decimalPoint: ",",
    lastTrick: "Revoir les plis",
    tricksTitle: "Les plis",
    trickOf: (n, total) => `Pli ${n} sur ${total}`,
    reviewTitle: "Revoir la partie",
    reviewGame: "Revoir la partie",
    trickPrevious: "Pli précédent",
    trickNext: "Pli suivant",
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
    boardRating: "Par niveau",
    boardRatingEmpty: "Personne n'a encore de niveau établi à ce jeu : il faut dix parties entre amis.",
    boardCaptionRating: "Par niveau (parties entre amis, niveaux établis)",
    ratingHeader: "Niveau",
    gamesHeader: "Parties",
    dayPrevious: "Jour précédent",
    dayNext: "Jour suivant",
    settingsTitle: "Réglages",
    languageLegend: "Langue",
    speedLegend: "Vitesse des joueurs simulés",
    speedSlow: "Lente",
    speedNormal: "Normale",
    speedFast: "Rapide",
    tableSpeed: "Vitesse du jeu",
    skipHint: "Pendant que les autres jouent, Échap, Espace ou un tap sur le tapis montre tout de suite leurs coups.",
    nameLegend: "Ton nom au classement",
    nameLabel: "Nom (1 à 24 caractères)",
    saveName: "Enregistrer",
    nameSaved: "Nom enregistré.",
    yourName: "Ton nom",
    nameNeeded: "Donne-toi un nom avant de t'asseoir.",
    // The server's refusals of a name (src/couyon/server/names.py), said in French; one it does not know: its code.
    nameRefusals: [
      [/^A name has 1 to (\d+) characters\.$/, (most) => `Un nom a de 1 à ${most} caractères.`],
      [/^A name may not hold invisible/, () => "Un nom ne peut pas contenir de caractère invisible."],
      [/^A name may hold only/, () => "Un nom ne peut contenir que des lettres, des chiffres, des espaces et - _ . '"],
      [/^A name needs at least one/, () => "Un nom demande au moins une lettre ou un chiffre."],
      [/^A name may not mix/, () => "Un nom ne peut pas mêler les lettres de plusieurs écritures."],
      [/^This name looks like/, () => "Ce nom ressemble à celui d'un autre joueur des classements : choisis-en un autre."],
    ],
    nameRefused: "Ce nom n'est pas accepté : choisis-en un autre.",
    continue: "Continuer",
    // A friends' table, as the homes offer it (the table's own words: js/friends/friends-words.js).
    friendsTitle: "Entre amis",
    friendsText: "Une table pour toi et tes amis, avec les options de la table choisies plus haut ; le robot tient les places libres.",
    friendsClock: "Temps par décision",
    friendsClockNone: "Sans limite",
    friendsClock15: "15 secondes",
    friendsClock30: "30 secondes",
    friendsClock60: "60 secondes",
    playFriends: "Jouer entre amis",
    joinCodeLabel: "Code de la table",
    joinTable: "Rejoindre une table",
    seeResult: "Voir le résultat",
    seeLeaderboard: "Voir le classement",
    footer: "Couyon, jeu de cartes d'Ardenne et de Wallonie. Aucune publicité, aucun compte.",
    seat: { S: "Sud", W: "Ouest", N: "Nord", E: "Est", NW: "Nord-Ouest", NE: "Nord-Est" },
    seatYou: "Sud (toi)",
    seatPartner: "partenaire",
    seatOpponent: "adversaire",
    team: { NS: "Nous", WE: "Eux" },
    teamLong: { NS: "Nord et Sud (nous)", WE: "Ouest et Est (eux)" },
    suit: { C: "trèfle", D: "carreau", H: "cœur", S: "pique" },
    // Tarot adds the ranks 1 to 8 (1 is the as), the cavalier (N), the trumps (suit T) and the Excuse (EX).
    rankLetter: { 1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", J: "V", N: "C", Q: "D", K: "R", A: "A" },
    rankName: {
      1: "as", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit",
      9: "neuf", 10: "dix", J: "valet", N: "cavalier", Q: "dame", K: "roi", A: "as",
    },
    cardName(rank, suit) {
      if (suit === "X") return "Excuse";
      if (suit === "T") return rank === "1" ? "Petit, 1 d'atout" : `${rank} d'atout`;
      return `${this.rankName[rank]} de ${this.suit[suit]}`;
    },
    cardWithArticle(rank, suit) {
      const name = this.cardName(rank, suit);
      if (suit === "X") return "l'Excuse";
      if (suit === "T") return rank === "1" ? "le Petit" : `le ${name}`;
      if (rank === "A" || rank === "1") return `l'${name}`;
      return `${rank === "Q" ? "la" : "le"} ${name}`;
    },
    cardsInHand: (n) => (n === 0 ? "aucune carte" : n === 1 ? "1 carte" : `${n} cartes`),
    dealer: "donneur",
    toMove: "à jouer",
    toBid: "à parler",
    taker: "preneur",
    saidPass: "Passe",
    trumpIs: (suit) => `Atout\u00a0: ${suit}`, // no line break before the colon (the badge wraps at 320 px)
    factDeal: "Donne",
    factDealer: "Donneur",
    factTrump: "Atout",
    factStake: "Enjeu",
    factPoints: "Points",
    noTrumpYet: "pas encore choisi",
    linesLeft: (n) => (n === 0 ? "plus aucune ligne" : n === 1 ? "1 ligne" : `${n} lignes`),
    chalkSummary: (us, them) => `Nous : ${us}. Eux : ${them}.`,
    promptBid: (suit, card) => [`${suit} comme atout ?`, `Carte retournée : ${card}.`],
    promptPlay: "À toi de jouer : choisis une carte soulevée.",
    promptWait: (seat) => `${seat} réfléchit…`,
    promptOver: "La partie est finie.",
    notPlayable: "Cette carte ne peut pas être jouée maintenant.",
    // Live region sentences.
    sayBid: (seat, take, suit, isYou) =>
      isYou ? (take ? `Tu prends, atout ${suit}.` : "Tu passes.") : take ? `${seat} prend, atout ${suit}.` : `${seat} passe.`,
    sayCard: (seat, card, isYou) => (isYou ? `Tu joues ${card}.` : `${seat} joue ${card}.`),
    sayTrick: (seat, points, isYou) =>
      `${isYou ? "Tu remportes" : `${seat} remporte`} le pli${points ? ` (${points} point${points > 1 ? "s" : ""})` : ""}.`,
    sayDealStart: (number, dealer, card) => `Donne ${number}. ${dealer} distribue. Retourne : ${card}.`,
    sayYourTurnPlay: "À toi de jouer.",
    sayGameOver: (won, score) => `Partie terminée. ${won ? "Vous gagnez" : "Ouest et Est gagnent"}, ${score} points.`,
    trumpCard: (card) => `${card}, atout`,
    trumpMark: "atout",
    // Table options of a free game (js/main.js), and a board line's place.
    optionsLegend: "La table",
    optionNames: { players: "Joueurs à la table", tokens: "Jetons par joueur", level: "Niveau des joueurs simulés" },
    levelNames: { beginner: "Débutant", easy: "Facile", normal: "Normal", expert: "Expert" },
    // Levels, hints, sound and the recovery code (issue 12: players who come back).
    boardLevel: "Niveau des joueurs simulés",
    boardCaptionLevel: (caption, level) => `${caption} · niveau ${level}`,
    toolsButton: "Outils de la table",
    hintButton: "Conseil de l'expert",
    hintNote: "Un conseil retire la partie du classement.",
    hintSays: (what) => `L'expert jouerait : ${what}.`,
    hintFailed: "Pas de conseil pour l'instant : réessaie quand c'est ton tour.",
    endHinted: (count) =>
      count === 1
        ? "Partie non classée : tu as demandé un conseil à l'expert."
        : `Partie non classée : tu as demandé ${count} conseils à l'expert.`,
    soundToggle: "Son",
    soundLegend: "Son",
    soundLabel: "Bruit des cartes, des plis et de la craie",
    recoveryTitle: "Ton joueur sur un autre appareil",
    recoveryText:
      "Sans compte, ton joueur vit dans ce navigateur. Son code te le rend sur un autre appareil ou si tu effaces tes données : tes parties, ton nom et tes places au classement. Garde-le pour toi.",
    recoveryShow: "Montrer mon code",
    recoveryCodeLabel: "Ton code de récupération",
    recoveryCopy: "Copier le code",
    recoveryCopyLink: "Copier le lien",
    recoveryEnterLabel: "Entrer un code",
    recoveryUse: "Utiliser ce code",
    recoveryNone: "Pas encore de joueur sur cet appareil : joue une partie ou enregistre un nom d'abord.",
    recoveryDone: (name) =>
      name ? `C'est fait : cet appareil joue maintenant comme ${name}.` : "C'est fait : cet appareil joue maintenant avec ce joueur.",
    recoveryBad: "Ce code n'est pas valable : recopie-le en entier depuis l'appareil où tu joues.",
    recoveryEmpty: "Colle d'abord un code dans le champ.",
    recoveryReceived: "Code reçu : appuie sur « Utiliser ce code » pour retrouver ce joueur ici.",
    recoveryReplaced: "Ce code a été remplacé par un plus récent : demande le dernier code de ce joueur.",
    recoveryNew: "Faire un nouveau code",
    recoveryNewNote: "Un nouveau code remplace tous les anciens, qui ne marchent plus. Tes autres appareils, et tout appareil qui a utilisé un ancien code, perdent ton joueur : seul cet appareil le garde. Retrouve-le ailleurs avec le nouveau code.",
    recoveryNewDone: "Voici ton nouveau code : les anciens ne marchent plus, et ton joueur ne joue plus que sur cet appareil.",
    recoveryAskTitle: "Changer de joueur sur cet appareil ?",
    recoveryAskText: (games) =>
      `Cet appareil jouera comme le joueur de ce code. Ton joueur actuel garde ${games > 1 ? `ses ${games} parties` : "sa partie"} : tu ne ${games > 1 ? "les" : "la"} retrouveras qu'avec son propre code. Note-le avant de continuer.`,
    recoveryCurrentLabel: "Le code de ton joueur actuel",
    recoveryCurrentCopy: "Copier ce code",
    recoveryKeep: "Garder mon joueur",
    recoverySwitch: "Jouer comme l'autre joueur",
    recoveryKept: "Rien n'a changé : cet appareil garde ton joueur.",
    placeHeader: "Place",
    placeOf: (place, players) => `${place === 1 ? "1er" : `${place}e`} sur ${players}`,
    // Deal summary.
    dealTitle: (n) => `Fin de la donne ${n}`,
    outcomeRedeal: "Personne n'a pris : on redonne.",
    pointsHeader: "Points",
    linesHeader: "Lignes",
    teamHeader: "Camp",
    movedHeader: "Mouvement",
    linesMoved: (d) => (d === 0 ? "inchangé" : d < 0 ? `${-d} effacée${d < -1 ? "s" : ""}` : `${d} ajoutée${d > 1 ? "s" : ""}`),
    // End of game.
    endWon: "Gagné !",
    endLost: "Perdu, cette fois.",
    endDealPlayed: "Donne jouée.",
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
    anonymousTag: (tag) => `Anonyme n°${tag}`,
    youMark: "(toi)",
    nameInvite: (shown) => `Sans nom, ta ligne s'affiche « ${shown} ». Choisis-toi un nom :`,
    boardEmpty: "Personne n'a encore fini de partie ici.",
    boardHidden:
      "Le classement d'aujourd'hui s'affiche quand ton essai classé du jour est terminé, et pour tout le monde dès minuit, heure de Bruxelles. Ceux des jours passés sont ouverts à tous.",
    boardCaptionDaily: (day) => `Défi du ${day}`,
    boardCaptionFree: (period) =>
      ({ day: "Parties libres d'aujourd'hui", week: "Parties libres de cette semaine", all: "Parties libres, depuis toujours" })[period],
    periodChoice: "Quelle période",
    periodDay: "Aujourd'hui",
    periodWeek: "Cette semaine",
    periodAll: "Depuis toujours",
    lastTrickEmpty: "Aucun pli n'a encore été joué dans cette donne.",
    trickLedWon: (leader, winner) => `${leader} entame${winner ? `, ${winner} remporte le pli` : ""}.`,
    trickNumber: (n) => `Pli ${n} :`,
    dealTricksTitle: (n) => `Les ${n} plis de la donne`,
    nextDeal: "Donne suivante",
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
    navLevel: "My level",
    navPuzzles: "Puzzles",
    homeTitle: "A couyon table, right now",
    homeLead:
      "Twenty-four cards, four players, two teams: you play South, North is your partner. Erase your five chalk lines before the others.",
    freeTitle: "Free game",
    freeText: "A whole game against three simulated players.",
    newGame: "New game",
    resumeGame: "Resume the game",
    dailyTitle: "Today's challenge",
    dailyText: "The same cards for everyone today. Do better than the others with the same hands.",
    playDaily: "Play the challenge",
    resumeDaily: "Resume the challenge",
    dailyDone: "Today's challenge played: you may play it again, unranked.",
    replayDaily: "Replay unranked",
    dailyNext: (h, m) => `New challenge in ${h} h ${String(m).padStart(2, "0")} min.`,
    dailyTimeLeft: (h, m) => `${h} h ${String(m).padStart(2, "0")} min left to play it.`,
    dailyUnavailable: "Today's challenge cannot be reached right now.",
    moreTitle: "More",
    linkRules: "The rules of couyon",
    linkLeaderboard: "The leaderboard",
    linkSettings: "Language, speed and name",
    linkGameRules: "Rules, tips and questions",
    linkTips: "Tips and frequent questions",
    otherGamesTitle: "Other games",
    gameChoice: "Which game",
    // Issue 12: the daily's rules, the day's results, the archive and the player's statistics.
    dailyRules:
      "One ranked try a day. On equal scores, whoever played fewer deals ranks first, then whoever finished first. The challenge changes at midnight, Brussels time.",
    linkResults: "The day's results and past challenges",
    linkStats: "Your statistics and streak",
    navResults: "Results",
    resultsTitle: "Challenge results",
    statsTitle: "Your statistics",
    endResults: "See the day's results",
    challengeFriend: "Challenge a friend",
    dayBoardTitle: "That day's leaderboard",
    shareButton: "Share",
    back: {
      place: (rank) => ordinalEn(rank),
      homeResult: (score, rank, players) => `Today's challenge: ${score} points, ${ordinalEn(rank)} of ${players}.`,
      homePending: "Today's challenge is played; it joins the leaderboard as soon as it is checked.",
      betterThan: (percent) => `Better than ${percent}% of the other players.`,
    },
    tableOf: (game) => `The table: ${game}`,
    rulesUnavailable: "The rules could not be loaded. Try again in a moment.",
    tableTitle: "The table",
    centreTitle: "The middle of the table",
    trickLabel: "Current trick",
    dropHint: "Drop your card here",
    sideLabel: "Score and information",
    chalkTitle: "The slate",
    dealInfoTitle: "This deal",
    playersLegend: "Number of players",
    decimalPoint: ".",
    lastTrick: "Review the tricks",
    tricksTitle: "The tricks",
    trickOf: (n, total) => `Trick ${n} of ${total}`,
    reviewTitle: "Game review",
    reviewGame: "Review the game",
    trickPrevious: "Previous trick",
    trickNext: "Next trick",
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
    boardRating: "By rating",
    boardRatingEmpty: "Nobody has an established rating at this game yet: it takes ten games with friends.",
    boardCaptionRating: "By rating (games with friends, established ratings)",
    ratingHeader: "Rating",
    gamesHeader: "Games",
    dayPrevious: "Previous day",
    dayNext: "Next day",
    settingsTitle: "Settings",
    languageLegend: "Language",
    speedLegend: "Speed of the simulated players",
    speedSlow: "Slow",
    speedNormal: "Normal",
    speedFast: "Fast",
    tableSpeed: "Game speed",
    skipHint: "While the others play, Escape, Space or a tap on the table shows their moves at once.",
    nameLegend: "Your name on the leaderboard",
    nameLabel: "Name (1 to 24 characters)",
    saveName: "Save",
    nameSaved: "Name saved.",
    yourName: "Your name",
    nameNeeded: "Give yourself a name before you sit down.",
    nameRefusals: [[/^(A name |This name ).*\.?$/, null]],
    nameRefused: "This name is not accepted: choose another.",
    continue: "Continue",
    friendsTitle: "With friends",
    friendsText: "A table for you and your friends, with the table options chosen above; the bot holds the free seats.",
    friendsClock: "Time per decision",
    friendsClockNone: "No limit",
    friendsClock15: "15 seconds",
    friendsClock30: "30 seconds",
    friendsClock60: "60 seconds",
    playFriends: "Play with friends",
    joinCodeLabel: "Table code",
    joinTable: "Join a table",
    seeResult: "See the result",
    seeLeaderboard: "See the leaderboard",
    footer: "Couyon, the card game of the Ardennes and Wallonia. No ads, no account.",
    seat: { S: "South", W: "West", N: "North", E: "East", NW: "North-West", NE: "North-East" },
    seatYou: "South (you)",
    seatPartner: "partner",
    seatOpponent: "opponent",
    team: { NS: "Us", WE: "Them" },
    teamLong: { NS: "North and South (us)", WE: "West and East (them)" },
    suit: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
    rankLetter: { 1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", J: "J", N: "Kn", Q: "Q", K: "K", A: "A" },
    rankName: {
      1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
      9: "nine", 10: "ten", J: "jack", N: "knight", Q: "queen", K: "king", A: "ace",
    },
    cardName(rank, suit) {
      if (suit === "X") return "Excuse";
      if (suit === "T") return rank === "1" ? "Petit, trump 1" : `trump ${rank}`;
      return `${this.rankName[rank]} of ${this.suit[suit]}`;
    },
    cardWithArticle(rank, suit) {
      if (suit === "X") return "the Excuse";
      if (suit === "T") return rank === "1" ? "the Petit" : `trump ${rank}`;
      return `the ${this.cardName(rank, suit)}`;
    },
    cardsInHand: (n) => (n === 0 ? "no cards" : n === 1 ? "1 card" : `${n} cards`),
    dealer: "dealer",
    toMove: "to play",
    toBid: "to bid",
    taker: "taker",
    saidPass: "Passes",
    trumpIs: (suit) => `Trumps: ${suit}`,
    factDeal: "Deal",
    factDealer: "Dealer",
    factTrump: "Trumps",
    factStake: "Stake",
    factPoints: "Points",
    noTrumpYet: "not chosen yet",
    linesLeft: (n) => (n === 0 ? "no lines left" : n === 1 ? "1 line" : `${n} lines`),
    chalkSummary: (us, them) => `Us: ${us}. Them: ${them}.`,
    promptBid: (suit, card) => [`${suit} as trumps?`, `Turned up: ${card}.`],
    promptPlay: "Your turn: choose one of the raised cards.",
    promptWait: (seat) => `${seat} is thinking…`,
    promptOver: "The game is over.",
    notPlayable: "This card cannot be played now.",
    sayBid: (seat, take, suit, isYou) =>
      isYou ? (take ? `You take, ${suit} are trumps.` : "You pass.") : take ? `${seat} takes, ${suit} are trumps.` : `${seat} passes.`,
    sayCard: (seat, card, isYou) => (isYou ? `You play ${card}.` : `${seat} plays ${card}.`),
    sayTrick: (seat, points, isYou) =>
      `${isYou ? "You win" : `${seat} wins`} the trick${points ? ` (${points} point${points > 1 ? "s" : ""})` : ""}.`,
    sayDealStart: (number, dealer, card) => `Deal ${number}. ${dealer} deals. Turned up: ${card}.`,
    sayYourTurnPlay: "Your turn to play.",
    sayGameOver: (won, score) => `Game over. ${won ? "You win" : "West and East win"}, ${score} points.`,
    trumpCard: (card) => `${card}, trump`,
    trumpMark: "trump",
    optionsLegend: "The table",
    optionNames: { players: "Players at the table", tokens: "Tokens per player", level: "Level of the simulated players" },
    levelNames: { beginner: "Beginner", easy: "Easy", normal: "Normal", expert: "Expert" },
    // Levels, hints, sound and the recovery code (issue 12: players who come back).
    boardLevel: "Level of the simulated players",
    boardCaptionLevel: (caption, level) => `${caption} · ${level} level`,
    toolsButton: "Table tools",
    hintButton: "Expert's hint",
    hintNote: "A hint takes the game off the leaderboard.",
    hintSays: (what) => `The expert would play: ${what}.`,
    hintFailed: "No hint right now: try again when it is your turn.",
    endHinted: (count) =>
      count === 1
        ? "Not ranked: you asked the expert for a hint."
        : `Not ranked: you asked the expert for ${count} hints.`,
    soundToggle: "Sound",
    soundLegend: "Sound",
    soundLabel: "Sounds of cards, tricks and chalk",
    recoveryTitle: "Your player on another device",
    recoveryText:
      "There is no account: your player lives in this browser. Its code brings it back on another device or after you clear your data: your games, your name and your places on the leaderboard. Keep it to yourself.",
    recoveryShow: "Show my code",
    recoveryCodeLabel: "Your recovery code",
    recoveryCopy: "Copy the code",
    recoveryCopyLink: "Copy the link",
    recoveryEnterLabel: "Enter a code",
    recoveryUse: "Use this code",
    recoveryNone: "No player on this device yet: play a game or save a name first.",
    recoveryDone: (name) => (name ? `Done: this device now plays as ${name}.` : "Done: this device now plays as that player."),
    recoveryBad: "This code is not valid: copy it again, whole, from the device where you play.",
    recoveryEmpty: "Paste a code in the field first.",
    recoveryReceived: "Code received: press “Use this code” to get that player back here.",
    recoveryReplaced: "This code was replaced by a newer one: ask for that player's latest code.",
    recoveryNew: "Make a new code",
    recoveryNewNote: "A new code replaces all the old ones, which stop working. Your other devices, and any device that used an old code, lose your player: only this device keeps it. Get it back elsewhere with the new code.",
    recoveryNewDone: "Here is your new code: the old ones no longer work, and your player now plays on this device only.",
    recoveryAskTitle: "Switch players on this device?",
    recoveryAskText: (games) =>
      `This device will play as the player of that code. Your current player keeps ${games === 1 ? "its game" : `its ${games} games`}: you can get ${games === 1 ? "it" : "them"} back only with that player's own code. Note it down before you go on.`,
    recoveryCurrentLabel: "Your current player's code",
    recoveryCurrentCopy: "Copy this code",
    recoveryKeep: "Keep my player",
    recoverySwitch: "Play as the other player",
    recoveryKept: "Nothing changed: this device keeps your player.",
    placeHeader: "Place",
    placeOf: (place, players) => `${ordinalEn(place)} of ${players}`,
    dealTitle: (n) => `End of deal ${n}`,
    outcomeRedeal: "Nobody took: the cards are dealt again.",
    pointsHeader: "Points",
    linesHeader: "Lines",
    teamHeader: "Team",
    movedHeader: "Change",
    linesMoved: (d) => (d === 0 ? "unchanged" : d < 0 ? `${-d} erased` : `${d} added`),
    endWon: "You won!",
    endLost: "Lost, this time.",
    endDealPlayed: "Deal played.",
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
    anonymousTag: (tag) => `Anonymous #${tag}`,
    youMark: "(you)",
    nameInvite: (shown) => `Without a name, your row shows as "${shown}". Choose one:`,
    boardEmpty: "Nobody has finished a game here yet.",
    boardHidden:
      "Today's board shows once your ranked attempt of the day is finished, and for everyone from midnight, Brussels time. Past days' boards are open to all.",
    boardCaptionDaily: (day) => `Challenge of ${day}`,
    boardCaptionFree: (period) =>
      ({ day: "Today's free games", week: "This week's free games", all: "Free games, all time" })[period],
    periodChoice: "Which period",
    periodDay: "Today",
    periodWeek: "This week",
    periodAll: "All time",
    lastTrickEmpty: "No trick has been played in this deal yet.",
    trickLedWon: (leader, winner) => `${leader} led${winner ? `, ${winner} won the trick` : ""}.`,
    trickNumber: (n) => `Trick ${n}:`,
    dealTricksTitle: (n) => `The ${n} tricks of the deal`,
    nextDeal: "Next deal",
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

/** Whether ``value`` is a plain object of words (not a function, a string or an array). */
const isWordGroup = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

function merge(into, words) {
  for (const [key, value] of Object.entries(words)) {
    if (isWordGroup(value) && isWordGroup(into[key])) merge(into[key], value);
    else into[key] = value;
  }
}

/**
 * Join more words to the lookup: ``words`` is {fr: {...}, en: {...}}, each merged group by group into
 * that language's words (coucou's ``review.coucou`` joins the review's ``review`` group).
 */
export function addWords(words) {
  for (const [code, own] of Object.entries(words)) merge(STRINGS[code], own);
}

/**
 * A refusal of the API as one sentence of the page's language: a name's (names.py speaks English) through
 * the language's ``nameRefusals``, any other as the server says it.
 */
export function refusalText(error) {
  const words = t();
  if (!error || !error.status) return words.errorGeneric;
  if (error.code === "name_required") return words.nameNeeded;
  if (error.code !== "invalid_name" && error.code !== "invalid_fields") return error.message;
  for (const [pattern, say] of words.nameRefusals) {
    const found = pattern.exec(error.message ?? "");
    if (found) return say ? say(...found.slice(1)) : error.message;
  }
  return words.nameRefused;
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

/** A number in the page's language: a decimal comma in French, one decimal at most. */
export function formatNumber(value) {
  return Number(value).toLocaleString(t().dateFormat, { maximumFractionDigits: 1 });
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
