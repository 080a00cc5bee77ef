import { describeLanguage } from '../../../lib/languages';

/**
 * The few words of the content screens that are not content (labels of the blog, the article
 * and the contact form), in each language of content/languages.yaml. The validation messages
 * of the contact form stay word for word as SPEC §5 gives them.
 */
export interface ContentUiText {
  all: string;
  filterByTag: string;
  recentArticles: string;
  suggestedTags: string;
  tags: string;
  noArticles: string;
  minutesToRead: (minutes: number) => string;
  words: (count: number) => string;
  publishedOn: string;
  by: string;
  readIn: string;
  readArticle: string;
  allArticles: string;
  tryIt: string;
  login: string;
  pricing: string;
  contact: string;
  moreAbout: (tag: string) => string;
  contactForm: {
    title: string;
    name: string;
    email: string;
    subject: string;
    message: string;
    send: string;
  };
}

const EN: ContentUiText = {
  all: 'All',
  filterByTag: 'Filter by tag',
  recentArticles: 'Recent articles',
  suggestedTags: 'Suggested tags',
  tags: 'Tags',
  noArticles: 'No article has this tag yet.',
  minutesToRead: (minutes) => `${minutes} min read`,
  words: (count) => `${count} words`,
  publishedOn: 'Published',
  by: 'by',
  readIn: 'Read this article in',
  readArticle: 'Read the article',
  allArticles: 'All articles',
  tryIt: 'Hear it for yourself',
  login: 'Log in and start converting',
  pricing: 'See the plans',
  contact: 'Ask us a question',
  moreAbout: (tag) => `More about ${tag}`,
  contactForm: {
    title: 'Send us a message',
    name: 'Name',
    email: 'Email',
    subject: 'Subject',
    message: 'Message',
    send: 'Send message',
  },
};

const TEXT: Record<string, ContentUiText> = {
  default: EN,
  fr: {
    all: 'Tous',
    filterByTag: 'Filtrer par étiquette',
    recentArticles: 'Articles récents',
    suggestedTags: 'Étiquettes suggérées',
    tags: 'Étiquettes',
    noArticles: 'Aucun article ne porte encore cette étiquette.',
    minutesToRead: (minutes) => `${minutes} min de lecture`,
    words: (count) => `${count} mots`,
    publishedOn: 'Publié le',
    by: 'par',
    readIn: 'Lire cet article en',
    readArticle: "Lire l'article",
    allArticles: 'Tous les articles',
    tryIt: 'Écoutez par vous-même',
    login: 'Connectez-vous et convertissez',
    pricing: 'Voir les offres',
    contact: 'Posez-nous une question',
    moreAbout: (tag) => `Plus sur ${tag}`,
    contactForm: {
      title: 'Envoyez-nous un message',
      name: 'Nom',
      email: 'E-mail',
      subject: 'Objet',
      message: 'Message',
      send: 'Envoyer le message',
    },
  },
  de: {
    all: 'Alle',
    filterByTag: 'Nach Schlagwort filtern',
    recentArticles: 'Neueste Artikel',
    suggestedTags: 'Vorgeschlagene Schlagwörter',
    tags: 'Schlagwörter',
    noArticles: 'Zu diesem Schlagwort gibt es noch keinen Artikel.',
    minutesToRead: (minutes) => `${minutes} Min. Lesezeit`,
    words: (count) => `${count} Wörter`,
    publishedOn: 'Veröffentlicht am',
    by: 'von',
    readIn: 'Diesen Artikel lesen auf',
    readArticle: 'Artikel lesen',
    allArticles: 'Alle Artikel',
    tryIt: 'Hören Sie selbst',
    login: 'Anmelden und loslegen',
    pricing: 'Tarife ansehen',
    contact: 'Stellen Sie uns eine Frage',
    moreAbout: (tag) => `Mehr zu ${tag}`,
    contactForm: {
      title: 'Schreiben Sie uns',
      name: 'Name',
      email: 'E-Mail',
      subject: 'Betreff',
      message: 'Nachricht',
      send: 'Nachricht senden',
    },
  },
  es: {
    all: 'Todos',
    filterByTag: 'Filtrar por etiqueta',
    recentArticles: 'Artículos recientes',
    suggestedTags: 'Etiquetas sugeridas',
    tags: 'Etiquetas',
    noArticles: 'Todavía no hay artículos con esta etiqueta.',
    minutesToRead: (minutes) => `${minutes} min de lectura`,
    words: (count) => `${count} palabras`,
    publishedOn: 'Publicado el',
    by: 'por',
    readIn: 'Leer este artículo en',
    readArticle: 'Leer el artículo',
    allArticles: 'Todos los artículos',
    tryIt: 'Escúchelo usted mismo',
    login: 'Inicie sesión y empiece a convertir',
    pricing: 'Ver los planes',
    contact: 'Háganos una pregunta',
    moreAbout: (tag) => `Más sobre ${tag}`,
    contactForm: {
      title: 'Envíenos un mensaje',
      name: 'Nombre',
      email: 'Correo electrónico',
      subject: 'Asunto',
      message: 'Mensaje',
      send: 'Enviar mensaje',
    },
  },
  ar: {
    all: 'الكل',
    filterByTag: 'التصفية حسب الوسم',
    recentArticles: 'أحدث المقالات',
    suggestedTags: 'وسوم مقترحة',
    tags: 'الوسوم',
    noArticles: 'لا توجد مقالات بهذا الوسم بعد.',
    minutesToRead: (minutes) => `${minutes} دقيقة قراءة`,
    words: (count) => `${count} كلمة`,
    publishedOn: 'نُشر في',
    by: 'بقلم',
    readIn: 'اقرأ هذه المقالة بـ',
    readArticle: 'اقرأ المقالة',
    allArticles: 'كل المقالات',
    tryIt: 'استمع بنفسك',
    login: 'سجّل الدخول وابدأ التحويل',
    pricing: 'اطّلع على الخطط',
    contact: 'اطرح علينا سؤالًا',
    moreAbout: (tag) => `المزيد عن ${tag}`,
    contactForm: {
      title: 'أرسل لنا رسالة',
      name: 'الاسم',
      email: 'البريد الإلكتروني',
      subject: 'الموضوع',
      message: 'الرسالة',
      send: 'إرسال الرسالة',
    },
  },
};

/** The labels of a route language; English for languages without their own. */
export function contentUiText(language: string): ContentUiText {
  return TEXT[language] ?? EN;
}

/** '7 September 2026' in the language's own way of writing dates. */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(describeLanguage(language).locale, {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(date);
}
