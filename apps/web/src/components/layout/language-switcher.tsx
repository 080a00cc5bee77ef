import { Button, Menu, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  describeLanguage,
  isLocalisedPath,
  localizePath,
  SITE_LANGUAGES,
} from '../../lib/languages';
import { Flag } from '../flags';
import { ChevronDownIcon } from '../icons';

interface LanguageSwitcherProps {
  /** The route language ('default' for English). */
  language: string;
  /** The current path without its language prefix. */
  path: string;
  /** The query string to keep (?tag= on the blog). */
  search: string;
}

/**
 * SPEC §2 "Global": the current language with its flag; the others are links to the same page
 * in that language. It sits in the header, so it never covers a control (issue 18 item 3); on
 * phones it shrinks to the flag.
 */
export function LanguageSwitcher({ language, path, search }: LanguageSwitcherProps) {
  const { t } = useTranslation();
  const current = describeLanguage(language);
  // A path that has no language variant ("any other path" showing the convertor) switches to
  // the convertor in that language.
  const target = isLocalisedPath(path) ? path : '/convertor';
  const others = SITE_LANGUAGES.filter((candidate) => candidate.code !== current.code);

  return (
    <Menu position="bottom-end" shadow="md" width={200}>
      <Menu.Target>
        <Button
          variant="default"
          h={44}
          px="xs"
          leftSection={<Flag code={current.code} />}
          rightSection={<ChevronDownIcon size={16} />}
        >
          <VisuallyHidden>{t('layout.language')} </VisuallyHidden>
          <Text component="span" fz="sm" lang={current.locale} visibleFrom="sm">
            {current.nativeName}
          </Text>
          <VisuallyHidden hiddenFrom="sm" lang={current.locale}>
            {current.nativeName}
          </VisuallyHidden>
        </Button>
      </Menu.Target>
      <Menu.Dropdown aria-label={t('layout.languages')}>
        {others.map((other) => (
          <Menu.Item
            key={other.code}
            component={Link}
            to={`${localizePath(target, other.code)}${search}`}
            leftSection={<Flag code={other.code} />}
            lang={other.locale}
            hrefLang={other.locale}
          >
            {other.nativeName}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
