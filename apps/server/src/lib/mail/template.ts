export interface MailContent {
  /** The greeting line's subject and the HTML title. */
  title: string;
  /** Paragraphs before the action button. Plain text: escaped for HTML. */
  intro: string[];
  action?: { label: string; url: string };
  /** Paragraphs after the action (expiry, "ignore this mail if…"). */
  outro?: string[];
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
  );

/**
 * The one layout of every mail: a plain-text part for any client and an HTML part with the
 * same words, inline styles only (mail clients ignore style sheets), and the link also written
 * out in full in case the button does not work.
 */
export function renderMail(content: MailContent): { text: string; html: string } {
  const outro = content.outro ?? [];
  const text = [
    ...content.intro,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    ...outro,
    '— The Parla team',
  ].join('\n\n');

  const paragraph = (p: string) =>
    `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`;
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#5b3df5;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;line-height:1.5;font-size:13px;color:#555555">If the button does not work, paste this address into your browser:<br><a href="${escapeHtml(content.action.url)}" style="color:#5b3df5;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(content.title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1a1a1a">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<h1 style="margin:0 0 24px;font-size:20px">${escapeHtml(content.title)}</h1>
${content.intro.map(paragraph).join('\n')}
${action}
${outro.map(paragraph).join('\n')}
<p style="margin:24px 0 0;color:#555555">— The Parla team</p>
</div></body></html>`;
  return { text, html };
}
