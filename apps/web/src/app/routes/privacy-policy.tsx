import { ContentPage } from '../../features/content/components/content-page';

/** SPEC §2: the privacy policy, from the content service in the route language. */
export default function PrivacyPolicyPage() {
  return (
    <ContentPage
      page="privacy-policy"
      fallbackTitle="Privacy Policy"
      fallbackDescription="How Parla collects, uses and protects your personal data."
    />
  );
}
