import { type ReactNode, useId } from 'react';

/**
 * Language flags as inline SVG (emoji flags do not render on every system, and nothing is
 * fetched from a CDN). Decorative: the language name beside the flag is the label. Arabic is
 * spoken in many countries, so a neutral mark stands for it.
 */
export function Flag({ code, size = 20 }: { code: string; size?: number }) {
  const clipId = useId();
  let viewBox = '0 0 3 2';
  let content: ReactNode;
  switch (code) {
    case 'fr':
      content = (
        <>
          <path fill="#002654" d="M0 0h1v2H0z" />
          <path fill="#fff" d="M1 0h1v2H1z" />
          <path fill="#ce1126" d="M2 0h1v2H2z" />
        </>
      );
      break;
    case 'de':
      viewBox = '0 0 5 3';
      content = (
        <>
          <path fill="#000" d="M0 0h5v1H0z" />
          <path fill="#d00" d="M0 1h5v1H0z" />
          <path fill="#ffce00" d="M0 2h5v1H0z" />
        </>
      );
      break;
    case 'es':
      content = (
        <>
          <path fill="#aa151b" d="M0 0h3v2H0z" />
          <path fill="#f1bf00" d="M0 .5h3v1H0z" />
        </>
      );
      break;
    case 'ar':
      content = (
        <>
          <path fill="#006c35" d="M0 0h3v2H0z" />
          <text
            x="1.5"
            y="1.45"
            textAnchor="middle"
            fontSize="1.3"
            fill="#fff"
            fontFamily="system-ui, sans-serif"
          >
            ع
          </text>
        </>
      );
      break;
    default:
      // The Union Flag for English.
      viewBox = '0 0 60 30';
      content = (
        <>
          <clipPath id={`${clipId}-diagonal`}>
            <path d="M30 15h30v15zv15H0zH0V0zV0h30z" />
          </clipPath>
          <path d="M0 0v30h60V0z" fill="#012169" />
          <path d="M0 0l60 30m0-30L0 30" stroke="#fff" strokeWidth="6" />
          <path
            d="M0 0l60 30m0-30L0 30"
            clipPath={`url(#${clipId}-diagonal)`}
            stroke="#C8102E"
            strokeWidth="4"
          />
          <path d="M30 0v30M0 15h60" stroke="#fff" strokeWidth="10" />
          <path d="M30 0v30M0 15h60" stroke="#C8102E" strokeWidth="6" />
        </>
      );
  }
  return (
    <svg
      viewBox={viewBox}
      width={size}
      height={Math.round((size * 2) / 3)}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
      style={{ borderRadius: 2, flex: 'none', boxShadow: '0 0 0 1px rgba(0,0,0,0.15)' }}
    >
      {content}
    </svg>
  );
}
