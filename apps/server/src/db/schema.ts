import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/*
 * Column types are chosen to behave the same on SQLite and PostgreSQL: ids are UUID text,
 * times are ISO-8601 UTC text (sortable as text), flags are 0/1 integers.
 */

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: string;
  email_validated_at: string | null;
  /** Carried in every token; raising it (password change) refuses all tokens issued before. */
  token_version: number;
  name: string | null;
  phone: string | null;
  address_country: string | null;
  address_state: string | null;
  address_city: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_postal_code: string | null;
  tax_type: string | null;
  tax_code: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  card_name: string | null;
  has_payment_method_added: number;
  plan_type: string;
  plan_period: string;
  count_characters: number;
  count_characters_per_convert: number;
  count_characters_added: number;
  /** The card provider's customer (Stripe `cus_…`), created on the first payment. */
  payment_customer_id: string | null;
  /** The saved card at the provider (Stripe `pm_…`), the customer's default. */
  payment_method_id: string | null;
  /** When an administrator disabled the account (migration 0013); its credentials stop working. */
  disabled_at: string | null;
  /** JSON of the PlanTerms the plan was bought or given with (0018); null: the plan's now. */
  plan_terms: string | null;
  created_at: string;
  updated_at: string;
}

export type UserKeyPurpose = 'validate_email' | 'reset_password';

export interface UserKeysTable {
  key_hash: string;
  user_id: string;
  purpose: UserKeyPurpose;
  /** The address the key proves: the account's, or the new one of an email change. */
  email: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface ConversionsTable {
  id: string;
  user_id: string | null;
  visitor_id: string | null;
  format: string;
  mime_type: string;
  size: number;
  duration: number;
  characters: number;
  created_at: string;
  expires_at: string;
}

/** A conversion charged and not yet stored (migration 0011). */
export interface ConversionIntentsTable {
  /** The conversion's id. */
  id: string;
  /** The user charged, or null for a visitor. */
  user_id: string | null;
  /** The visitor allowances charged (JSON array of visitor_usage keys), or null for a user. */
  visitor_keys: string | null;
  characters: number;
  lease_owner: string;
  lease_until: string;
  /** Set when the characters were given back (the conversion failed, or its server died). */
  refunded_at: string | null;
  created_at: string;
}

export interface VisitorUsageTable {
  visitor_key: string;
  characters_used: number;
  period_start: string;
}

export interface ContentLanguagesTable {
  /** 'default' (English) or the lower-case country code of the route prefix. */
  code: string;
  name: string;
  native_name: string;
  locale: string;
  direction: 'ltr' | 'rtl';
  position: number;
  /** JSON: PageListItem[], the app's own screens (login, editors, sitemap) in this language. */
  templates: string;
}

export interface ContentPagesTable {
  language: string;
  slug: string;
  category: string;
  title: string;
  description: string;
  position: number;
  /** JSON: PageSection[] of @parla/contract. */
  sections: string;
  updated_at: string;
}

export interface ContentArticlesTable {
  language: string;
  slug: string;
  /** Shared by an article and its translations. */
  translation_key: string;
  title: string;
  preview: string;
  /** JSON: string[]. */
  tags: string;
  cover_image: string | null;
  cover_alt: string | null;
  published_time: string;
  modified_time: string;
  words_count: number;
  time_to_read: number;
  content_html: string;
  is_on_main_page: number;
}

/** A page or article as the text of its file (migration 0017, decision 054). */
export interface ContentDocumentsTable {
  kind: 'pages' | 'articles';
  language: string;
  slug: string;
  /** The file's text as last saved in the console. */
  draft: string;
  /** The file's text visitors see (content_pages/content_articles hold it rendered). */
  published: string | null;
  /** When set, the draft is published at this instant. */
  publish_at: string | null;
  /** The file's text as last seeded: equal to draft and published while never edited. */
  seeded: string | null;
  published_at: string | null;
  updated_at: string;
}

export interface ContentRevisionsTable {
  id: string;
  kind: 'pages' | 'articles';
  language: string;
  slug: string;
  source: string;
  action: 'seed' | 'save' | 'publish' | 'restore';
  actor_email: string | null;
  created_at: string;
}

export interface ContentStateTable {
  key: string;
  value: string;
}

export type PaymentStatus = 'pending' | 'succeeded' | 'failed';

export interface PaymentsTable {
  id: string;
  user_id: string;
  /** Per attempt: the same key again is the same attempt (a retry), never a second charge. */
  idempotency_key: string;
  provider: string;
  plan_type: string;
  amount_cents: number;
  currency: string;
  status: PaymentStatus;
  /** The provider's payment (Stripe PaymentIntent `pi_…`). */
  provider_payment_id: string | null;
  message: string | null;
  card_name: string | null;
  /** Set while one request talks to the provider for this attempt (a lease, ISO instant). */
  charging_until: string | null;
  /** Reserved before the provider refunds (migration 0014), never above amount_cents. */
  amount_refunded_cents: Generated<number>;
  /** The provider's charge (Stripe `ch_…`). */
  provider_charge_id: string | null;
  /** The characters the payment gave (null: paid before migration 0014). */
  count_characters: number | null;
  /** JSON of the PlanTerms this payment bought (0018); null: paid before. */
  terms: string | null;
  created_at: string;
  updated_at: string;
}

/** A plan's terms now (migration 0018, decision 055); bigint columns read as numbers. */
export interface PlansTable {
  plan_type: string;
  price_cents: number;
  count_characters: number | string;
  count_characters_per_convert: number | string;
  storage_bytes: number | string;
  /** Comma-separated engines. */
  engines: string;
  updated_at: string | null;
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** A refund of (part of) a payment, made from the console (migration 0014). */
export interface RefundsTable {
  id: string;
  payment_id: string;
  /** Per payment: the same key again is the same refund (a retry), never a second one. */
  idempotency_key: string;
  amount_cents: number;
  currency: string;
  status: RefundStatus;
  reason: string;
  /** all, proportional or none: what was taken back of the payment's characters. */
  characters: string;
  characters_taken: Generated<number>;
  provider_refund_id: string | null;
  message: string | null;
  actor_id: string | null;
  actor_email: string | null;
  processing_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface FilesTable {
  id: string;
  user_id: string;
  storage_key: string;
  mime_type: string;
  size: number;
  length: number;
  language: string;
  voice: string;
  engine: string;
  language_code: string;
  voice_id: string;
  audio_format: string;
  audio_sample_rate: number;
  effect: string | null;
  master_speed: number;
  master_volume: number;
  master_pitch: number;
  ssml: string | null;
  created_at: string;
  updated_at: string;
}

/** A token ended by logout; kept until it would have expired anyway. */
export interface RevokedTokensTable {
  jti: string;
  expires_at: string;
}

export interface LoginFailuresTable {
  /** The normalised address a login named (whether or not an account has it). */
  address: string;
  /** Consecutive wrong passwords; a successful login removes the row. */
  failures: number;
  last_failed_at: string;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface InvoicesTable {
  /** Sequential per installation, from counters('invoice'). */
  number: number;
  /** Null once the account (and its payments) was deleted: the invoice itself is kept. */
  payment_id: string | null;
  user_id: string | null;
  plan_type: string;
  amount_cents: number;
  currency: string;
  /** JSON: the buyer's InvoiceInfo when the payment succeeded. */
  billing: string;
  issued_at: string;
}

/** A user's API key (issue 16): the key itself is never stored, only its SHA-256. */
export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** The key's first characters, shown so the user can tell keys apart. */
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** The first answer of an API call sent with an Idempotency-Key. */
export interface IdempotentRequestsTable {
  user_id: string;
  key: string;
  /** A hash of the request's body: the same key with another body is refused. */
  fingerprint: string;
  /** The conversion that answered it; null while the first call is still rendering. */
  conversion_id: string | null;
  created_at: string;
}

/** A long text or document rendered in the background (issue 19). */
export interface JobsTable {
  id: string;
  user_id: string;
  title: string;
  /** A document format, or `text`. */
  source: string;
  /** queued, running, done, failed or cancelled. */
  status: string;
  /** The voice settings (SPEC §3) without the text, as JSON. */
  settings: string;
  output_format: string;
  characters: number;
  /** The chapters' titles and characters, as JSON. */
  chapters: string;
  audio_key: string | null;
  duration: number | null;
  /** Bytes of the audio (bigint: PostgreSQL answers it as a string). */
  audio_size: number | string | null;
  error: string | null;
  /** The server rendering it, and until when it holds it (renewed while it runs). */
  lease_owner: string | null;
  lease_until: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A job's text in parts: pending, charged (being rendered) or done. */
export interface JobPartsTable {
  job_id: string;
  chapter: number;
  part: number;
  text: string;
  characters: number;
  status: string;
  duration: number | null;
  /** When its rendering last began, and when it was done (ISO times; null before). */
  started_at: string | null;
  rendered_at: string | null;
}

/** A user's pronunciation lexicon (issue 32); `entries` is JSON of LexiconEntry[]. */
export interface LexiconsTable {
  id: string;
  user_id: string;
  name: string;
  language: string;
  default_position: number | null;
  entry_count: number;
  entries: string;
  created_at: string;
  updated_at: string;
}

/** A console action (migration 0013): append-only, its before and after as JSON text. */
export interface AuditLogTable {
  id: string;
  /** The administrator; null for the command line (`parla admin grant`). */
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string;
  before: string | null;
  after: string | null;
  reason: string | null;
  created_at: string;
}

/** A successful login (migration 0013), shown to administrators. */
export interface SignInsTable {
  id: string;
  user_id: string;
  ip: string;
  user_agent: string | null;
  created_at: string;
}

/**
 * The operator's setting of a voice or a language (migration 0016, decision 052): hidden (0 or
 * 1), and for a language the voice it starts on. A voice or language without a row is shown.
 */
export interface VoiceSettingsTable {
  kind: 'voice' | 'language';
  /** A voice id of the catalogue, or a language code in lower case. */
  id: string;
  hidden: number;
  default_voice_id: string | null;
  updated_at: string;
}

/** A message sent through the contact form (migration 0013). */
export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  /** new, answered or archived. */
  status: string;
  created_at: string;
  updated_at: string;
}

/**
 * A conversion or a job that ended (migration 0015), kept for the console's overview after the
 * conversion expired or the job was deleted.
 */
export interface UsageLogTable {
  id: string;
  /** `conversion` (the convertor, the public API, OpenAI's route) or `job`. */
  source: 'conversion' | 'job';
  /** `succeeded`, or `failed` for the service's own reasons (decision 053). */
  status: 'succeeded' | 'failed';
  /** Null for a visitor, or once the account is deleted. */
  user_id: string | null;
  engine: string;
  voice: string;
  /** Lower case ('en-us'). */
  language: string;
  /** The characters asked for (a failure's too; the overview sums those that succeeded). */
  characters: number;
  /** Seconds of audio (0 for a failure). */
  duration: number;
  created_at: string;
}

export interface Database {
  usage_log: UsageLogTable;
  audit_log: AuditLogTable;
  sign_ins: SignInsTable;
  contact_messages: ContactMessagesTable;
  lexicons: LexiconsTable;
  jobs: JobsTable;
  job_parts: JobPartsTable;
  api_keys: ApiKeysTable;
  idempotent_requests: IdempotentRequestsTable;
  revoked_tokens: RevokedTokensTable;
  login_failures: LoginFailuresTable;
  counters: CountersTable;
  invoices: InvoicesTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  files: FilesTable;
  users: UsersTable;
  user_keys: UserKeysTable;
  content_languages: ContentLanguagesTable;
  content_pages: ContentPagesTable;
  content_articles: ContentArticlesTable;
  content_state: ContentStateTable;
  content_documents: ContentDocumentsTable;
  content_revisions: ContentRevisionsTable;
  conversions: ConversionsTable;
  visitor_usage: VisitorUsageTable;
  conversion_intents: ConversionIntentsTable;
  voice_settings: VoiceSettingsTable;
  plans: PlansTable;
}

export type User = Selectable<UsersTable>;
export type Payment = Selectable<PaymentsTable>;
export type NewPayment = Insertable<PaymentsTable>;
export type Invoice = Selectable<InvoicesTable>;
export type Refund = Selectable<RefundsTable>;
export type SavedFileRow = Selectable<FilesTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
