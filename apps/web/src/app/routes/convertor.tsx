import { ConvertorPage } from '../../features/convertor/components/convertor-page';

/** The editor home (SPEC §2 "Convertor"): /convertor, /convertor/text and /convertor/ssml. */
export default function ConvertorRoute() {
  return <ConvertorPage />;
}
