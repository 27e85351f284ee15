// Player-facing words, French first and English second, and the sentences the live
// region speaks. The choice of language is remembered in localStorage.

const STORAGE_KEY = "couyon.language";

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st: places in English sentences. */
function ordinalEn(n) {
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
    // Table options of a free game (js/main.js), and a board line's place.
    optionsLegend: "La table",
    optionNames: { players: "Joueurs à la table", tokens: "Jetons par joueur", level: "Niveau des joueurs simulés" },
    levelNames: { easy: "Facile", normal: "Normal", expert: "Expert" },
    placeHeader: "Place",
    placeOf: (place, players) => `${place === 1 ? "1er" : `${place}e`} sur ${players}`,
    // Coucou's table (js/games/coucou.js).
    coucou: {
      freeText: "Choisis le nombre de joueurs, leurs jetons et le niveau des joueurs simulés, puis installe-toi.",
      dailyNote: "Huit joueurs, trois jetons chacun, joueurs simulés experts.",
      dealsHeader: "Coups tenus",
      you: "Toi",
      player: (n) => `Joueur ${n}`,
      and: "et",
      rankName: {
        A: "as", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit", 9: "neuf",
        10: "dix", J: "valet", Q: "dame", K: "roi",
      },
      rankLetter: { J: "V", Q: "D", K: "R" },
      cardName: (rank, suit) => `${rank} de ${suit}`,
      withArticle: (rank, name) => (rank === "A" ? `l'${name}` : rank === "Q" ? `la ${name}` : `le ${name}`),
      rankPhrase: (rank, name) => (rank === "A" ? "l'as" : rank === "Q" ? "la dame" : `le ${name}`),
      seatsTitle: "Les joueurs autour de la table",
      seatsLabel: (n) => `${n} joueurs, dans l'ordre des places ; tu es le joueur 1`,
      hiddenCard: "carte cachée",
      knownCard: (card) => `${card} (tu sais qu'il l'a)`,
      lowestCard: (card) => `${card}, la plus basse`,
      tokens: (n) => (n === 0 ? "plus de jeton" : n === 1 ? "1 jeton" : `${n} jetons`),
      dealerChip: "Donneur",
      turnChip: "parle",
      winnerChip: "Gagnant",
      outChip: (place) => `Éliminé · ${place}e`,
      said: {
        keep: "Je garde",
        change: "Je change",
        coucou: "Coucou !",
        stock: "Au talon",
        stockKing: "Roi au talon",
      },
      stockCaption: "Talon",
      stockHidden: "Le talon, face cachée",
      stockTurned: (card) => `Le talon : ${card}, retourné`,
      coupTitle: (n) => `Coup ${n}`,
      dealerLine: (name, you) => (you ? "tu donnes" : `${name} donne`),
      inPlay: (m, n) => `${m} en jeu sur ${n}`,
      youWon: "Tu as gagné !",
      winnerIs: (name) => `${name} gagne la partie`,
      coucouBanner: (name, you) => (you ? "Coucou ! Tu as un roi." : `Coucou ! ${name} a un roi.`),
      stockKingBanner: "Un roi au talon : pas d'échange.",
      yourCard: "Ta carte",
      keep: "Garder",
      change: "Changer",
      keysHint: "Au clavier : G pour garder, C pour changer.",
      skip: "Passer à la fin",
      skipping: "La fin de la partie s'affiche d'un coup.",
      promptChange: (card, name) => `Tu as ${card}. Tu le gardes, ou tu changes avec ${name} ?`,
      promptStock: (card) => `Tu as ${card}. Tu le gardes, ou tu changes avec la carte du talon ?`,
      yourTurn: (card, stock) =>
        `À toi : tu as ${card}. Garder, ou changer ${stock ? "avec le talon" : "avec ton voisin"} ? Touche G pour garder, C pour changer.`,
      sayKeep: (name, you) => (you ? "Tu gardes ta carte." : `${name} garde.`),
      sayExchange: (name, partner) => `${name} change avec ${partner}.`,
      sayExchangeYou: (partner, gave, got) => `Tu changes avec ${partner} : tu donnes ${gave} et tu reçois ${got}.`,
      sayExchangeToYou: (name, gave, got) => `${name} change avec toi : tu donnes ${gave} et tu reçois ${got}.`,
      sayCoucou: (name, king, you, kingYou) =>
        kingYou
          ? `${name} veut changer avec toi. Coucou ! Ton roi ne bouge pas : ${name} garde sa carte.`
          : `${you ? "Tu veux" : `${name} veut`} changer avec ${king}. Coucou ! ${king} a un roi : ${you ? "tu gardes ta carte" : `${name} garde sa carte`}.`,
      sayStock: (name, card, you) =>
        you ? `Tu changes avec le talon : tu prends ${card}.` : `${name} change avec le talon et prend ${card}.`,
      sayStockKing: (name, card, you) =>
        `Le talon montre ${card} : pas d'échange, ${you ? "tu gardes ta carte" : `${name} garde sa carte`}.`,
      lowestLine: (number, rank, others, count, you) =>
        `Coup ${number} : la carte la plus basse est ${rank}. ` +
        (you
          ? `Tu perds un jeton${count ? `, comme ${others}` : ""}.`
          : `${others} ${count > 1 ? "perdent" : "perd"} un jeton.`),
      sameRank: (number) => `Coup ${number} : toutes les cartes ont la même hauteur, personne ne perd de jeton.`,
      sayEliminated: (others, count, place, you) =>
        you
          ? `Tu n'as plus de jeton : tu es éliminé, ${place}e place${count ? `, avec ${others}` : ""}.`
          : `${others} ${count > 1 ? "n'ont plus de jeton : éliminés" : "n'a plus de jeton : éliminé"}, ${place}e place.`,
      sayWatch: "La table finit la partie sans toi, en accéléré. Le bouton « Passer à la fin » montre la fin d'un coup.",
      sayCoupStart: (number, dealer, youDeal, card) =>
        `Coup ${number}. ${youDeal ? "Tu donnes" : `${dealer} donne`}.${card ? ` Tu reçois ${card}.` : ""}`,
      sayWon: (score) => `Partie terminée : tu gagnes ! ${score} points.`,
      sayLost: (winner, place, n, score) => `Partie terminée : ${winner} gagne. Tu finis ${place}e sur ${n}, ${score} points.`,
      lastCoupTitle: "Le dernier coup",
      lastCoupNone: "Aucun coup n'est encore joué jusqu'au bout.",
      outLine: (names, you) => `${you ? "Éliminés, dont toi" : "Éliminés"} : ${names}.`,
      rulesLink: "Règles, conseils et questions du coucou",
      factCoup: "Coup",
      factDealer: "Donneur",
      factPlayers: "Joueurs",
      factTokens: "Tes jetons",
      factDeck: "Paquet",
      deck: (n) => `${n} cartes`,
      factLevel: "Joueurs simulés",
      endWonTitle: "Tu gagnes la partie !",
      endTitle: (place, n) => `Partie finie : ${place}e sur ${n}`,
      endWon: "Tu es le dernier à avoir des jetons.",
      endPlace: (place, n) => `Tu termines ${place}e sur ${n}.`,
      endScore: (score) => `Ton score : ${score} points.`,
      endCoups: (survived, total, won) =>
        won ? `Victoire en ${total} coups.` : `Tu as tenu ${survived} coup${survived > 1 ? "s" : ""} sur les ${total} de la partie.`,
      endWinner: (name) => `${name} gagne la partie.`,
      shareText: (day, place, n, score, coups) =>
        `Coucou, défi du ${day} : ${place === 1 ? "gagné" : `${place}e sur ${n}`}, ${score} points, ${coups} coups. Couyon`,
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
    optionsLegend: "The table",
    optionNames: { players: "Players at the table", tokens: "Tokens per player", level: "Level of the simulated players" },
    levelNames: { easy: "Easy", normal: "Normal", expert: "Expert" },
    placeHeader: "Place",
    placeOf: (place, players) => `${ordinalEn(place)} of ${players}`,
    coucou: {
      freeText: "Choose how many players, their tokens and the simulated players' level, then take your seat.",
      dailyNote: "Eight players, three tokens each, expert simulated players.",
      dealsHeader: "Coups lasted",
      you: "You",
      player: (n) => `Player ${n}`,
      and: "and",
      rankName: {
        A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
        10: "ten", J: "jack", Q: "queen", K: "king",
      },
      rankLetter: { J: "J", Q: "Q", K: "K" },
      cardName: (rank, suit) => `${rank} of ${suit}`,
      withArticle: (rank, name) => `the ${name}`,
      rankPhrase: (rank, name) => (rank === "A" || rank === "8" ? `an ${name}` : `a ${name}`),
      seatsTitle: "The players round the table",
      seatsLabel: (n) => `${n} players, in seat order; you are player 1`,
      hiddenCard: "hidden card",
      knownCard: (card) => `${card} (you know it)`,
      lowestCard: (card) => `${card}, the lowest`,
      tokens: (n) => (n === 0 ? "no tokens left" : n === 1 ? "1 token" : `${n} tokens`),
      dealerChip: "Dealer",
      turnChip: "speaking",
      winnerChip: "Winner",
      outChip: (place) => `Out · ${ordinalEn(place)}`,
      said: {
        keep: "I keep",
        change: "I change",
        coucou: "Coucou!",
        stock: "From the stock",
        stockKing: "King in the stock",
      },
      stockCaption: "Stock",
      stockHidden: "The stock, face down",
      stockTurned: (card) => `The stock: ${card}, turned up`,
      coupTitle: (n) => `Coup ${n}`,
      dealerLine: (name, you) => (you ? "you deal" : `${name} deals`),
      inPlay: (m, n) => `${m} still in of ${n}`,
      youWon: "You won!",
      winnerIs: (name) => `${name} wins the game`,
      coucouBanner: (name, you) => (you ? "Coucou! You hold a king." : `Coucou! ${name} holds a king.`),
      stockKingBanner: "A king in the stock: no exchange.",
      yourCard: "Your card",
      keep: "Keep",
      change: "Change",
      keysHint: "Keyboard: K or G to keep, C to change.",
      skip: "Skip to the end",
      skipping: "The end of the game is shown at once.",
      promptChange: (card, name) => `You hold ${card}. Keep it, or change with ${name}?`,
      promptStock: (card) => `You hold ${card}. Keep it, or change with the stock's card?`,
      yourTurn: (card, stock) =>
        `Your turn: you hold ${card}. Keep, or change ${stock ? "with the stock" : "with your neighbour"}? Press K to keep, C to change.`,
      sayKeep: (name, you) => (you ? "You keep your card." : `${name} keeps.`),
      sayExchange: (name, partner) => `${name} changes with ${partner}.`,
      sayExchangeYou: (partner, gave, got) => `You change with ${partner}: you give ${gave} and get ${got}.`,
      sayExchangeToYou: (name, gave, got) => `${name} changes with you: you give ${gave} and get ${got}.`,
      sayCoucou: (name, king, you, kingYou) =>
        kingYou
          ? `${name} wants to change with you. Coucou! Your king stays: ${name} keeps that card.`
          : `${you ? "You want" : `${name} wants`} to change with ${king}. Coucou! ${king} holds a king: ${you ? "you keep your card" : `${name} keeps that card`}.`,
      sayStock: (name, card, you) =>
        you ? `You change with the stock: you take ${card}.` : `${name} changes with the stock and takes ${card}.`,
      sayStockKing: (name, card, you) =>
        `The stock shows ${card}: no exchange, ${you ? "you keep your card" : `${name} keeps that card`}.`,
      lowestLine: (number, rank, others, count, you) =>
        `Coup ${number}: the lowest card is ${rank}. ` +
        (you ? `You lose a token${count ? `, and so ${count > 1 ? "do" : "does"} ${others}` : ""}.` : `${others} ${count > 1 ? "lose" : "loses"} a token.`),
      sameRank: (number) => `Coup ${number}: every card has the same rank, nobody loses a token.`,
      sayEliminated: (others, count, place, you) =>
        you
          ? `You have no tokens left: you are out, in ${ordinalEn(place)} place${count ? `, with ${others}` : ""}.`
          : `${others} ${count > 1 ? "have" : "has"} no tokens left: out, in ${ordinalEn(place)} place.`,
      sayWatch: "The table plays the rest of the game without you, faster. The “Skip to the end” button shows the end at once.",
      sayCoupStart: (number, dealer, youDeal, card) =>
        `Coup ${number}. ${youDeal ? "You deal" : `${dealer} deals`}.${card ? ` You get ${card}.` : ""}`,
      sayWon: (score) => `Game over: you win! ${score} points.`,
      sayLost: (winner, place, n, score) =>
        `Game over: ${winner} wins. You finish ${ordinalEn(place)} of ${n}, ${score} points.`,
      lastCoupTitle: "The last coup",
      lastCoupNone: "No coup has been played to the end yet.",
      outLine: (names, you) => `${you ? "Out, you among them" : "Out"}: ${names}.`,
      rulesLink: "Coucou rules, tips and questions",
      factCoup: "Coup",
      factDealer: "Dealer",
      factPlayers: "Players",
      factTokens: "Your tokens",
      factDeck: "Deck",
      deck: (n) => `${n} cards`,
      factLevel: "Simulated players",
      endWonTitle: "You win the game!",
      endTitle: (place, n) => `Game over: ${ordinalEn(place)} of ${n}`,
      endWon: "You are the last one with tokens.",
      endPlace: (place, n) => `You finish ${ordinalEn(place)} of ${n}.`,
      endScore: (score) => `Your score: ${score} points.`,
      endCoups: (survived, total, won) =>
        won ? `A win in ${total} coups.` : `You lasted ${survived} coup${survived > 1 ? "s" : ""} of the game's ${total}.`,
      endWinner: (name) => `${name} wins the game.`,
      shareText: (day, place, n, score, coups) =>
        `Coucou, challenge of ${day}: ${place === 1 ? "won" : `${ordinalEn(place)} of ${n}`}, ${score} points, ${coups} coups. Couyon`,
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
