/**
 * Business constants of SPEC.md §9 (and the few of §2–§5 that are numbers or names).
 * Every list is a `const` tuple so that its element type is a union of literals; the
 * schemas in this package build their enums from these tuples, so nothing is written twice.
 */

export const PRODUCT_NAME = 'Parla';

// --- Engines, formats, sample rates (SPEC §9) ---------------------------------------------

export const ENGINES = ['neural', 'standard'] as const;
export type Engine = (typeof ENGINES)[number];
export const DEFAULT_ENGINE = 'neural' satisfies Engine;

export const AUDIO_FORMATS = ['mp3', 'ogg', 'wav'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];
export const DEFAULT_AUDIO_FORMAT = 'mp3' satisfies AudioFormat;

/** Highest first, as the sample-rate select lists them. */
export const SAMPLE_RATES = [48000, 44100, 24000, 22050, 16000, 8000] as const;
export type SampleRate = (typeof SAMPLE_RATES)[number];
export const DEFAULT_SAMPLE_RATE = 48000 satisfies SampleRate;

// --- Voice effects and SSML vocabulary (SPEC §9) --------------------------------------------

/** In SPEC §9 order. */
export const VOICE_EFFECTS = [
  'breathing',
  'soft',
  'whispered',
  'conversational',
  'news',
  'customersupport',
  'assistant',
  'empathic',
  'calm',
  'happy',
  'sad',
  'angry',
  'excited',
  'friendly',
  'hopeful',
  'shouting',
  'terrified',
  'unfriendly',
] as const;
export type VoiceEffect = (typeof VOICE_EFFECTS)[number];

/** Effects offered only with the standard engine (SPEC §5 "Editor and conversion"). */
export const STANDARD_ONLY_EFFECTS = [
  'breathing',
  'soft',
  'whispered',
] as const satisfies readonly VoiceEffect[];
export type StandardOnlyEffect = (typeof STANDARD_ONLY_EFFECTS)[number];

export const SAY_AS_TYPES = [
  'date',
  'time',
  'address',
  'telephone',
  'spell-out',
  'expletive',
  'cardinal',
  'ordinal',
  'characters',
  'unit',
  'digits',
  'fraction',
] as const;
export type SayAsType = (typeof SAY_AS_TYPES)[number];

export const EMPHASIS_LEVELS = ['strong', 'moderate', 'reduced'] as const;
export type EmphasisLevel = (typeof EMPHASIS_LEVELS)[number];

export const SPEED_LEVELS = ['x-slow', 'slow', 'medium', 'fast', 'x-fast'] as const;
export type SpeedLevel = (typeof SPEED_LEVELS)[number];

export const VOLUME_LEVELS = ['x-soft', 'soft', 'medium', 'loud', 'x-loud'] as const;
export type VolumeLevel = (typeof VOLUME_LEVELS)[number];

/** SPEC §9 gives pitch the same named levels as volume. */
export const PITCH_LEVELS = ['x-soft', 'soft', 'medium', 'loud', 'x-loud'] as const;
export type PitchLevel = (typeof PITCH_LEVELS)[number];

// --- Editor costs and ranges (SPEC §5, §9) ---------------------------------------------------

/** Characters a tag insertion costs against the remaining characters (SPEC §9). */
export const TAG_COSTS = {
  pause: 19,
  speed: 33,
  volume: 35,
  pitch: 34,
  sayAs: 45,
  emphasis: 36,
  voiceEffect: 23,
} as const;
export type TagKind = keyof typeof TAG_COSTS;

export const SLIDERS = {
  speed: { min: -100, max: 100, tick: 20, unit: '%' },
  volume: { min: -20, max: 20, tick: 4, unit: 'dB' },
  pitch: { min: -100, max: 100, tick: 20, unit: '%' },
} as const;
export type SliderKind = keyof typeof SLIDERS;
/** Speed, volume and pitch default to 0 (SPEC §9). */
export const DEFAULT_SLIDER_VALUE = 0;

/** Upper bound of the speed/volume/pitch rate number inputs of the tag dialogs (min 0). */
export const RATE_INPUT_MIN = 0;
export const RATE_INPUT_MAX = 100;

export const PAUSE_UNITS = ['ms', 's'] as const;
export type PauseUnit = (typeof PAUSE_UNITS)[number];
export const PAUSE = {
  min: 1,
  max: 10,
  units: PAUSE_UNITS,
  defaultValue: 1,
  defaultUnit: 's',
} as const satisfies {
  min: number;
  max: number;
  units: readonly PauseUnit[];
  defaultValue: number;
  defaultUnit: PauseUnit;
};

/** A 0.2 s break is added per new line (SPEC §5). */
export const NEWLINE_BREAK_SECONDS = 0.2;
/** Longest break the pause dialog can produce (10 s). */
export const MAX_BREAK_SECONDS = 10;

// --- Player (SPEC §4, §9) --------------------------------------------------------------------

/** 0.2, 0.4, … 2, computed in tenths so the values are exact decimals, not 0.6000000000000001. */
export const PLAYER_SPEEDS: readonly number[] = Object.freeze(
  Array.from({ length: 10 }, (_, i) => ((i + 1) * 2) / 10),
);
export const DEFAULT_PLAYER_SPEED = 1;
export const PLAYER_SKIP_SECONDS = 5;
/** Number of bars of the normalised amplitude profile drawn for an audio track. */
export const WAVEFORM_BARS = 120;

// --- Plans, roles (SPEC §1, §6, §9) ----------------------------------------------------------

export const PLAN_TYPES = ['FREE', 'BASIC', 'PREMIUM', 'BUSINESS'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
export const PAID_PLAN_TYPES = [
  'BASIC',
  'PREMIUM',
  'BUSINESS',
] as const satisfies readonly PlanType[];
export type PaidPlanType = (typeof PAID_PLAN_TYPES)[number];
export const DEFAULT_PLAN_TYPE = 'FREE' satisfies PlanType;

const MIB = 1024 * 1024;

/**
 * Bytes of saved files each plan keeps (issue 13 item 5) as the product ships: the seed of the
 * plans table, edited in the console (decision 055). A USER on FREE cannot save (SPEC §6);
 * other roles save with the largest quota.
 */
export const PLAN_STORAGE_QUOTA_BYTES = {
  FREE: 0,
  BASIC: 1024 * MIB,
  PREMIUM: 5 * 1024 * MIB,
  BUSINESS: 20 * 1024 * MIB,
} as const satisfies Record<PlanType, number>;

/**
 * Upper bounds of the audio one conversion can make, which bound what may be saved: speech at
 * the slowest speed stays under this many seconds per character (espeak-ng's slowest rate is
 * about 0.15), and all breaks of one document together last at most MAX_TOTAL_BREAK_SECONDS.
 */
export const MAX_SPEECH_SECONDS_PER_CHARACTER = 0.25;
export const MAX_TOTAL_BREAK_SECONDS = 600;

/** SPEC §6 names only USER; ADMIN is ours (admin roles are "not shown"). */
export const ROLES = ['USER', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE = 'USER' satisfies Role;

export const PLAN_PERIODS = ['none', 'month', 'year'] as const;
export type PlanPeriod = (typeof PLAN_PERIODS)[number];

export const CARD_BRANDS = [
  'Visa',
  'MasterCard',
  'American Express',
  'Discover',
  'JCB',
  'Diners Club',
  'UnionPay',
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

// --- Forms, retention, timing (SPEC §5, §9) --------------------------------------------------

export const MIN_LENGTHS = {
  password: 6,
  name: 3,
  phone: 10,
  nameOnCard: 10,
  contactSubject: 3,
  contactMessage: 10,
} as const;

export const DELETE_CONFIRM_WORD = 'DELETE';
export const SAVED_FILE_RETENTION_DAYS = 30;

export const DELAYS_MS = {
  loader: 1000,
  skeleton: 1000,
  emailValidation: 3000,
  sitemapReload: 1000,
  downloadRevoke: 40000,
} as const;

export const RECENT_ARTICLES_COUNT = 3;

// --- Cookies (SPEC §3, §9) -------------------------------------------------------------------

export const TOKEN_COOKIE = 'token';
export const REMEMBERED_EMAIL_COOKIE = 'remembered_email';
export const REMEMBERED_PASSWORD_COOKIE = 'remembered_password';
/** Remembered credentials expire in the year 2050 (SPEC §9). */
export const REMEMBER_COOKIE_EXPIRES = '2050-01-01T00:00:00Z';
