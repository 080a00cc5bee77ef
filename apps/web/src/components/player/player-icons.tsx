import { type IconProps, Icon as SiteIcon } from '../icons';

/** The player's and toolbar's icons: solid, and slightly smaller than the site's stroked ones. */
const Icon = (props: IconProps) => <SiteIcon size={18} filled {...props} />;

export const PlayIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M7 4.5v15a1 1 0 0 0 1.5.86l12.5-7.5a1 1 0 0 0 0-1.72L8.5 3.64A1 1 0 0 0 7 4.5z" />
  </Icon>
);

export const PauseIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="6" y="4" width="4" height="16" rx="1" />
    <rect x="14" y="4" width="4" height="16" rx="1" />
  </Icon>
);

export const BackIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M11 6.5v11a.8.8 0 0 1-1.25.66l-7.9-5.5a.8.8 0 0 1 0-1.32l7.9-5.5A.8.8 0 0 1 11 6.5zM21 6.5v11a.8.8 0 0 1-1.25.66l-7.9-5.5a.8.8 0 0 1 0-1.32l7.9-5.5A.8.8 0 0 1 21 6.5z" />
  </Icon>
);

export const ForwardIcon = (props: IconProps) => <BackIcon {...props} transform="scale(-1 1)" />;

export const UndoIcon = (props: IconProps) => (
  <Icon
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    {...props}
  >
    <path d="M9 14 4 9l5-5" />
    <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
  </Icon>
);

export const RedoIcon = (props: IconProps) => <UndoIcon {...props} transform="scale(-1 1)" />;
