/** All locale files, bundled into the Worker (the browser receives only its own language). */
import ar from "../../locales/ar/common.json";
import cs from "../../locales/cs/common.json";
import de from "../../locales/de/common.json";
import en from "../../locales/en/common.json";
import fr from "../../locales/fr/common.json";
import hi from "../../locales/hi/common.json";
import hk from "../../locales/hk/common.json";
import id from "../../locales/id/common.json";
import it from "../../locales/it/common.json";
import jp from "../../locales/jp/common.json";
import kr from "../../locales/kr/common.json";
import my from "../../locales/my/common.json";
import pt from "../../locales/pt/common.json";
import ru from "../../locales/ru/common.json";
import spa from "../../locales/spa/common.json";
import th from "../../locales/th/common.json";
import tr from "../../locales/tr/common.json";
import vn from "../../locales/vn/common.json";
import type { LanguageCode } from "~/i18n/config";

export type Messages = typeof en;

export const resources: Record<LanguageCode, { common: Messages }> = {
  hk: { common: hk },
  en: { common: en },
  jp: { common: jp },
  kr: { common: kr },
  th: { common: th },
  vn: { common: vn },
  fr: { common: fr },
  de: { common: de },
  ru: { common: ru },
  spa: { common: spa },
  pt: { common: pt },
  ar: { common: ar },
  it: { common: it },
  tr: { common: tr },
  id: { common: id },
  my: { common: my },
  hi: { common: hi },
  cs: { common: cs },
};
