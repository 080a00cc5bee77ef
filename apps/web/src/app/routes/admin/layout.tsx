import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AdminLayout } from '../../../features/admin/components/admin-layout';
import { AuditPage } from '../../../features/admin/components/audit-page';
import { ContentEditor } from '../../../features/admin/components/content-editor';
import { ContentPage } from '../../../features/admin/components/content-page';
import { MessagesPage } from '../../../features/admin/components/messages-page';
import { OverviewPage } from '../../../features/admin/components/overview-page';
import { PaymentDetail } from '../../../features/admin/components/payments-detail';
import { PaymentsPage } from '../../../features/admin/components/payments-page';
import { PlansPage } from '../../../features/admin/components/plans-page';
import { UserDetail } from '../../../features/admin/components/user-detail';
import { UsersPage } from '../../../features/admin/components/users-page';
import { VoicesPage } from '../../../features/admin/components/voices-page';

/**
 * The words of the operator's console (namespace `admin`), each language a chunk of the
 * console's own: a visitor never downloads them, nor the console's code.
 */
const WORDS: Record<string, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../../../locales/admin/en.json'),
  fr: () => import('../../../locales/admin/fr.json'),
  de: () => import('../../../locales/admin/de.json'),
  es: () => import('../../../locales/admin/es.json'),
  ar: () => import('../../../locales/admin/ar.json'),
};

/** True once the console's words of the page's language (and English, their fallback) are in. */
function useConsoleWords(): boolean {
  const { i18n } = useTranslation();
  const locales = [...new Set(['en', WORDS[i18n.language] ? i18n.language : 'en'])];
  const missing = locales.filter((locale) => !i18n.hasResourceBundle(locale, 'admin'));
  const [loaded, setLoaded] = useState(missing.length === 0);
  const key = missing.join();
  useEffect(() => {
    if (!key) return;
    let current = true;
    Promise.all(
      key.split(',').map(async (locale) => {
        const words = (await WORDS[locale]?.())?.default ?? {};
        // The clones of the app's i18next share one store: every language instance sees them.
        i18n.addResourceBundle(locale, 'admin', words, true, true);
      }),
    ).then(() => current && setLoaded(true));
    return () => {
      current = false;
    };
  }, [i18n, key]);
  return loaded || !key;
}

/**
 * The page of a console path (/admin: the overview, /admin/users, /admin/users/{id},
 * /admin/messages, /admin/audit, /admin/payments, /admin/payments/{id}, /admin/voices,
 * /admin/plans, /admin/content, /admin/content/{pages|articles}/{language}/{slug}).
 */
function ConsolePage() {
  const { pathname } = useLocation();
  const [, , section, id, ...rest] = pathname.split('/');
  if (section === 'users' && id) {
    const user = decodeURIComponent(id);
    return <UserDetail key={user} id={user} />;
  }
  if (section === 'users') return <UsersPage />;
  if (section === 'messages') return <MessagesPage />;
  if (section === 'audit') return <AuditPage />;
  if (section === 'payments') {
    const payment = id && decodeURIComponent(id);
    return payment ? <PaymentDetail key={payment} id={payment} /> : <PaymentsPage />;
  }
  if (section === 'voices') return <VoicesPage />;
  if (section === 'plans') return <PlansPage />;
  if (section === 'content') {
    const [language, slug] = rest.map(decodeURIComponent);
    return (id === 'pages' || id === 'articles') && language && slug ? (
      <ContentEditor key={pathname} kind={id} language={language} slug={slug} />
    ) : (
      <ContentPage />
    );
  }
  return <OverviewPage />;
}

/**
 * /admin/* (issue 31): the console is one chunk, routed here rather than in the app's
 * first-load router, so that a visitor's first load carries none of it.
 */
export default function AdminRoute() {
  if (!useConsoleWords()) return null;
  return (
    <AdminLayout>
      <ConsolePage />
    </AdminLayout>
  );
}
