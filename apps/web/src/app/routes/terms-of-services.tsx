import { ContentPage } from '../../features/content/components/content-page';

/** SPEC §2: the terms of services, from the content service in the route language. */
export default function TermsOfServicesPage() {
  return (
    <ContentPage
      page="terms-of-services"
      fallbackTitle="Terms of Services"
      fallbackDescription="The terms under which Parla provides its text-to-speech service."
    />
  );
}
