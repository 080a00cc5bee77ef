import {
  Alert,
  Anchor,
  type CSSVariablesResolver,
  createTheme,
  type MantineColorsTuple,
  Menu,
} from '@mantine/core';

/**
 * The one theme of Parla (DESIGN.md): one accent colour, generous whitespace, the system font
 * stack (nothing fetched from a CDN). Components take colours, radius and spacing from here.
 */

// The accent: a deep indigo-violet. Shades 7 and up carry white text at WCAG AA (>= 4.5:1).
const accent: MantineColorsTuple = [
  '#eef0ff',
  '#dcdfff',
  '#b6bcfb',
  '#8d97f6',
  '#6b77f2',
  '#5562f0',
  '#4957ef',
  '#3a48d5',
  '#313fbf',
  '#2535a9',
];

const SYSTEM_FONTS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji"';

export const theme = createTheme({
  primaryColor: 'accent',
  primaryShade: { light: 7, dark: 8 },
  colors: { accent },
  fontFamily: SYSTEM_FONTS,
  headings: { fontFamily: SYSTEM_FONTS, fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Keyboard users always see where they are; mouse clicks do not leave rings behind.
  focusRing: 'auto',
  respectReducedMotion: true,
  components: {
    // Links in running text must not rely on colour alone (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Mantine's focus placeholder is a focusable role="presentation" div inside role="menu",
    // which assistive technology reads as an invalid menu child; focus goes to the items.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
    // A light alert writes its title in the alert colour's mid shade, below AA on the tinted
    // background; the colour is carried by the background and icon, the words by body text.
    Alert: Alert.extend({ styles: { title: { color: 'var(--mantine-color-text)' } } }),
    // A dialog's title bar is Mantine's <header> inside a section with role="dialog", which
    // accessibility trees read as a second banner landmark beside the page's: it is part of the
    // dialog, not a landmark. Plain objects, not Modal.extend: that would import the dialogs
    // into the first load.
    Modal: { defaultProps: { attributes: { header: { role: 'none' } } } },
    Drawer: { defaultProps: { attributes: { header: { role: 'none' } } } },
  },
  other: {
    headerHeight: 64,
    /** Readable measure for content pages: 60–75 characters per line. */
    readingWidth: '70ch',
  },
});

/**
 * Mantine's default "dimmed" grey and error red are below WCAG AA on white, and its dark-scheme
 * link colour (shade 4 of the accent) is below it on the dark body; these are not, in either
 * scheme.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    // Field errors and light red/green text (badges, light buttons; red 6, green 6) are below
    // AA on white and on their own tinted background. Red 9 is not; Mantine's greens are all
    // too bright, so light green text takes a deeper green (6.5:1 on white).
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-red-light-color': t.colors.red[9],
    '--mantine-color-green-light-color': '#1e6b30',
    // White on the filled red button (delete account) needs red 9 for AA.
    '--mantine-color-red-filled': t.colors.red[9],
    '--mantine-color-red-filled-hover': '#a51d1d',
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-error': t.colors.red[5],
    '--mantine-color-anchor': t.colors.accent?.[2] ?? t.colors.dark[0],
  },
});
