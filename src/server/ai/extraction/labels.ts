/** The invoice fields the extractor returns (besides line items). */
export const INVOICE_FIELDS = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'vendor_name',
  'vendor_address',
  'customer_name',
  'customer_address',
  'po_number',
  'subtotal',
  'tax',
  'total',
  'currency',
  'payment_terms',
  'vendor_vat_id',
  'customer_vat_id',
] as const;
export type InvoiceFieldName = (typeof INVOICE_FIELDS)[number];

export type ValueKind = 'id' | 'date' | 'amount' | 'text' | 'party' | 'currency' | 'vat';

/** A label an invoice field is announced by, with how strongly it points at the field. */
export interface LabelSpec {
  field: InvoiceFieldName;
  kind: ValueKind;
  pattern: RegExp;
  weight: number;
  /** Its value stands beside it only: a word that also heads a table's column, whose value is never read under it. */
  besideOnly?: true;
}

// Patterns match at the start of a phrase, case-insensitively; a trailing ':', '#', '.' is allowed.
const L = (field: InvoiceFieldName, kind: ValueKind, weight: number, source: string): LabelSpec => ({
  field,
  kind,
  weight,
  // The label ends at a separator, a space or the end, but not inside a value such as "PO-1234",
  // nor before a possessive ("Seller's commencement of work …" opens a sentence, not a label).
  pattern: new RegExp(`^(?:${source})(?:\\s*[:#.]|(?<=[#°º.:])(?=\\s|$)|\\b(?![-/'’]\\w)|(?<=\\W)(?=\\s|$))`, 'iu'),
});

// The kind of a German invoice before "Rechnung" ("Mietrechnung", "Abschlagsrechnung", "Betriebskostenabrechnung"); never "Verrechnung" or "Berechnung".
const KIND = '(?:(?!verr|ber)[a-zäöüß]{3,}(?<!ver|be))?';
// "No.", "Nr.", "N°", "Nº", "#", "number", "Nummer", "numéro", "número", "numero", "n." (IT).
const NO = '(?:no\\.?|nr\\.?|n[°º]\\.?|#|num(?:\\.|ber)?|nummer|num[ée]ro|número|numero|n\\.)';
// A money column or total may name its currency: "Total (EUR)", "Gesamt/€", "Prix HT (EUR)".
// A currency between a total's word and its tax qualifier ("Gesamt EUR inkl. MwSt.", "Gesamt EUR ohne MwSt.").
const CUR_WORD = '(?:\\s*(?:eur|usd|gbp|chf|sek|nok|dkk|czk|pln|huf|[$€£]))?';
const CUR = '(?:\\s*(?:[/(]\\s*)?(?:(?!(?:vat|tax|ust|btw|iva|tva|dph|pdv|pvm|ptu)\\b)[A-Z]{3}|[$€£]|K[čc])\\)?)?';

// "VAT ID", "Tax No.", "USt-IdNr.", "TVA intracom. n°": a VAT id's key after its party's name.
const VAT_KEY =
  '(?:vat|tax|ust|mwst|tva|btw|iva)[-\\s.]*(?:id(?:entification)?(?:\\s*(?:no\\.?|nr\\.?|number))?|id-?nr\\.?|no\\.?|nr\\.?|number|reg(?:istration)?(?:\\s*no\\.?)?|intracom\\.?(?:\\s*n[°º])?)';

/**
 * Label synonyms seen on real invoices, in English, German, French, Dutch, Spanish and Italian,
 * most specific first (the longest matching label wins, so "Total Tax" is tax and "Sub Total" is
 * not the total).
 */
export const LABELS: LabelSpec[] = [
  L(
    'invoice_number',
    'id',
    1,
    `(?:tax\\s+)?invoice\\s*(?:${NO}|id|ref(?:erence)?)|inv\\.?\\s*${NO}|bill\\s*${NO}|document\\s*${NO}|reference\\s*${NO}` +
      `|${KIND}rechnungs?\\.?[-\\s]?(?:\\(\\d+\\)\\s*)?${NO}|rechnungsnummer|belegnummer|beleg[-\\s]?${NO}|(?:kassen)?bon[-\\s]?${NO}|quittungs?[-\\s]?${NO}|(?:receipt|transaction|trans\\.?)\\s*(?:${NO}|id)|txn(?:\\s*(?:${NO}|id))?` +
      `|(?:facture|avoir|addition)\\s*${NO}|${NO}\\s*(?:de\\s*)?(?:la\\s*)?(?:facture|avoir)` +
      `|factuur\\s*${NO}|factuurnummer|factuurnr\\.?|faktura\\s*${NO}|fakturanr\\.?|fakturanummer|(?:factura|fattura|fatura)\\s*${NO}|${NO}\\s*(?:de\\s*|di\\s*|da\\s*)?(?:factura|fattura|fatura)` +
      // Estonian "Arve nr", Croatian "Račun br.", Czech "Faktura č." / "Číslo faktury", Lithuanian "Sąskaitos nr."
      `|arve\\s*${NO}|ra[čc]una?\\s*(?:br\\.?|broj)|faktura\\s*[čc]\\.|[čc][íi]slo\\s*faktury|s[ąa]skaitos\\s*(?:fakt[ūu]ros\\s*)?${NO}`,
  ),
  // A title followed by its number ("Facture FA-2017-0010", "Gutschrift (381) Nr. 7", "Invoice 103767").
  L(
    'invoice_number',
    'id',
    0.8,
    `(?:invoice|${KIND}rechnung|gutschrift|rechnungskorrektur|facture|avoir|factuur|creditnota|factura|fattura|arve|ra[čc]un|faktura(?:\\s*vat)?)(?:\\s*\\(\\d+\\))?`,
  ),
  L('invoice_number', 'id', 1, `(?:gutschrift|rechnungskorrektur|credit\\s*note|creditnota|nota\\s*di\\s*credito)(?:\\s*\\(\\d+\\))?\\s*${NO}`),
  // A bare "Reference" is often the invoice's number, but as often a booking's or an order's: an
  // invoice-number label beside it goes first ("Invoice No : 030405755 / 1" over "Reference : 2562107298").
  L('invoice_number', 'id', 0.85, 'reference'),
  // A travel receipt's only id is its booking's ("Booking reference: KQMDM9"), a restaurant's its check's
  // ("Check number 3047"): below any invoice-number label.
  L('invoice_number', 'id', 0.7, `(?:booking|reservation)\\s*(?:reference|ref\\.?|code|number|no\\.?)|check\\s*${NO}`),
  // A Mexican CFDI's "Folio" (its number; the "Folio fiscal" is the tax authority's UUID).
  L('invoice_number', 'id', 0.8, 'folio(?!\\s*fiscal)'),
  L(
    'po_number',
    'id',
    1,
    `p\\.?\\s?o\\.?\\s*(?:${NO}|ref(?:erence)?)?|purchase\\s*order(?:\\s*(?:${NO}|ref(?:erence)?))?|order\\s*${NO}|your\\s*(?:order|ref(?:erence)?)` +
      `|bestell(?:ung|nummer)\\s*${NO}?|ihre\\s*bestellung|${NO}\\s*(?:de\\s*)?bon\\s*de\\s*commande|bon\\s*de\\s*commande|votre\\s*r[ée]f[ée]rence|bestelnummer|inkoopordernummer|pedido\\s*${NO}?|ordine\\s*${NO}?`,
  ),
  L(
    'invoice_date',
    'date',
    1,
    'invoice\\s*date|date\\s*of\\s*(?:issue|invoice)|issue\\s*date|issued(?:\\s*on)?|date\\s*issued|bill(?:ing)?\\s*date|invoice\\s*dt' +
      "|rechnungs?[-\\s]?datum|datum\\s*der\\s*rechnung|beleg[-\\s]?datum|ausstellungsdatum|date\\s*(?:de\\s*(?:la\\s*)?)?facture|date\\s*d['’]\\s*[ée]mission|factuurdatum|datum\\s*factuur|fakturadato|fakturadatum" +
      '|fecha\\s*(?:y\\s*hora\\s*)?(?:de\\s*)?(?:la\\s*)?(?:factura|emisi[óo]n|expedici[óo]n)|data\\s*(?:della\\s*|di\\s*)?(?:fattura|emissione)|data\\s*(?:de\\s*|da\\s*)?(?:emiss[ãa]o|fatura)' +
      // Czech, Slovak, Polish and Croatian: "Datum vystavení", "Dátum vyhotovenia", "Data wystawienia", "Datum izdavanja"
      '|d[áa]tum\\s*(?:vystaven[íi]|vystavenia|vyhotovenia|izdavanja|ra[čc]una)|data\\s*wystawienia',
  ),
  L('invoice_date', 'date', 0.8, 'date|datum|fecha|data'),
  // A hotel bill is made out when the guest leaves: its departure date, where no date says it is the bill's
  // (below a bare "Date:" beside its value, above a folio's "Date" column heading).
  L(
    'invoice_date',
    'date',
    0.75,
    'departure(?:\\s*date)?|check[-\\s]?out(?:\\s*date)?|abreise(?:datum)?|date\\s*de\\s*d[ée]part|d[ée]part|fecha\\s*de\\s*salida|(?:data\\s*di\\s*)?partenza|vertrek(?:datum)?',
  ),
  L(
    'due_date',
    'date',
    1,
    'due\\s*date|payment\\s*due(?:\\s*date)?|due\\s*(?:by|on)|date\\s*due|(?:please\\s*)?(?:pay(?:ment)?|payable|remit)\\s*(?:by|until|till|(?:on\\s*or\\s*)?before)' +
      "|f[äa]lligkeit(?:sdatum)?|f[äa]llig\\s*(?:am|bis)|zahlbar\\s*bis|zahlungsziel|date\\s*(?:d['’]\\s*)?[ée]ch[ée]ance|[ée]ch[ée]ance|[àa]\\s*payer\\s*avant" +
      '|(?:bitte\\s+)?(?:überweisen|ueberweisen|zahlen|begleichen)\\s+sie\\s+(?:den\\s+(?:rechnungs)?betrag\\s+)?(?:bis|vor)(?:\\s+(?:zum|spätestens))?|[àa]\\s*r[ée]gler\\s*avant(?:\\s*le)?|payable\\s*avant(?:\\s*le)?|date\\s*limite\\s*de\\s*(?:r[èe]glement|paiement)|fecha\\s*l[íi]mite\\s*de\\s*pago' +
      '|vervaldatum|uiterste\\s*betaaldatum|forfallsdato|forfaldsdato|f[öo]rfallo(?:datum|dag)|te\\s*betalen\\s*voor|fecha\\s*(?:de\\s*)?venc(?:imiento|\\.)|vencimiento|data\\s*(?:de\\s*)?vencimento|vencimento|(?:data\\s*(?:di\\s*)?)?scadenza' +
      // "Datum splatnosti", "Dátum splatnosti", "Termin płatności", "Datum dospijeća", "Rok dospijeća"
      '|d[áa]tum\\s*splatnosti|splatnost|termin\\s*p[łl]atno[śs]ci|(?:datum|rok)\\s*dospije[ćc]a',
  ),
  L('due_date', 'date', 0.9, 'due'),
  // (here and below, "excl,", "incl,": OCR often reads an abbreviation's point as a comma)
  L(
    'subtotal',
    'amount',
    1,
    `(?:sub[\\s-]?total|(?:total|totaal|totale|gesamt|summe)(?:\\s*(?:amount|bedrag|betrag|importe|importo))?${CUR_WORD}\\s*(?:excl[.,]?|exkl[.,]?|excluding|ohne|hors|zonder|sin|senza)\\s*(?:vat|tax|gst|btw|ust|mwst|tva|iva)\\.?|net\\s*(?:amount|total|value)|total\\s*net|total\\s*(?:excl[.,]?|excluding|before)\\s*(?:vat|tax|gst)|amount\\s*before\\s*tax|taxable\\s*amount` +
      `|zwischensumme|(?:rechnungs|gesamt)?(?:betrag|summe)\\s*\\(netto\\)|total\\s*\\(net\\)|summe\\s*(?:der\\s*)?positionen|positionssumme|warensumme|(?:summe\\s*|gesamt\\s*)?netto(?:betrag|summe)?|rechnungssumme\\s*ohne\\s*(?:ust|mwst)\\.?|summe\\s*(?:ohne|exkl[.,]?)\\s*(?:ust|mwst)\\.?|warenwert` +
      `|total\\s*h\\.?\\s*t\\.?|montant\\s*h\\.?\\s*t\\.?|(?:montant\\s*(?:de\\s*(?:la|votre)\\s*)?)?facture\\s*h\\.?\\s*t\\.?|sous[\\s-]total|total\\s*hors\\s*taxes?` +
      `|subtotaal|totaal\\s*excl[.,]?(?:\\s*btw)?|netto\\s*bedrag|btw[\\s-]*plichtig\\s*bedrag|belastbaar\\s*bedrag|base\\s*imponible|importe\\s*neto|(?:monto\\s*)?neto|(?:totale\\s*)?imponibile|subtotale` +
      `|valor\\s*total\\s*dos\\s*produtos|total\\s*il[íi]quido|valor\\s*il[íi]quido|total\\s*sem\\s*iva|base\\s*tribut[áa]vel` +
      // "Celkem bez DPH", "Základ DPH", "Spolu bez DPH", "Razem netto", "Wartość netto", "Iznos bez PDV"
      `|(?:celkem|spolu|celkom)\\s*bez\\s*dph|z[áa]klad\\s*(?:dph|dane)|(?:razem|suma|warto[śs][ćc]|kwota)\\s*netto|iznos\\s*bez\\s*pdv|osnovica)${CUR}`,
  ),
  // A slip's bare "Net 220.54" (never "Net 30" or "Net 30 days", the payment term): a net amount, below the labels that
  // say net total; a tax breakdown's "Net" column is one rate's, so nothing under it is read.
  { ...L('subtotal', 'amount', 0.8, `net(?!\\s*\\d{1,3}(?:\\s*days?)?\\s*$)`), besideOnly: true },
  // "19% MwSt", "Total VAT", "Sales tax", a US receipt's "TAX1" (its first rate) ...
  L(
    'tax',
    'amount',
    1,
    `(?:(?:(?:incl|inkl|enth|zzgl)\\.?\\s*|including\\s+|plus\\s+)?\\d+(?:[.,]\\d+)?\\s*%\\s*(?:vat|tax|tva|mwst|ust|btw|iva|gst|mehrwertsteuer|umsatzsteuer|pvm|ptu|dph|pdv)|(?:total\\s*|totaal\\s*|totale\\s*|summe\\s*|montant\\s*|cuota\\s*)?(?:(?:amount|bedrag|betrag|importe|importo)\\s*)?(?:sales\\s*|value\\s*added\\s*)?(?:tax(?:es|\\d)?|vat|gst|hst|pst|iva|igic|i\\.v\\.a\\.|mwst|umsatzsteuer|mehrwertsteuer|steuer|ust|tva|btw|imposta|mva|moms|pvm|ptu|dph|pdv|k[äa]ibemaks)\\.?(?:[-\\s]*(?:gesamt|total|betrag|bedrag))?` +
      `(?:\\s*\\(?@?\\s*\\d+(?:[.,]\\d+)?\\s*%\\)?)?(?!\\s*(?:-?\\s*id|\\.?\\s*-?\\s*%|no\\.?|number|reg|registration|#|exempt|rate\\s*:|satz|taux|n[°º]|intra|client|klant|nummer|nr|br\\.?\\s*:|broj))(?:\\s*amount)?|steuerbetrag|af\\s*te\\s*dragen\\s*btw|(?:suma|kwota|razem|warto[śs][ćc])\\s*(?:podatku\\s*)?vat|(?:celkem|spolu)\\s*dph|iznos\\s*pdv)${CUR}`,
  ),
  L(
    'total',
    'amount',
    1,
    `(?:grand\\s*total|(?:total|totaal|totale|gesamt|summe)(?:\\s*(?:amount|bedrag|betrag|importe|importo))?${CUR_WORD}\\s*(?:incl[.,]?|inkl[.,]?|including|inc\\.?)\\s*(?:vat|tax|gst|btw|ust|mwst|tva|iva)\\.?|total\\s*(?:amount\\s*)?(?:due|payable)|amount\\s*(?:due|payable)|invoice\\s*amount|balance\\s*(?:due|payable)?|invoice\\s*total|gross\\s*(?:total\\s*)?(?:amount|total)|total\\s*(?:incl[.,]?|including|inc\\.?)\\s*(?:vat|tax|gst)|please\\s*pay|total\\s*(?:amount|price|charges|usd|eur|gbp)?(?!\\s*(?:pcs|pieces|qty|quantity|items?|units?|weight|hours|hrs|kg|pages?|points?|pts|stk|st[üu]ck|anzahl|menge)\\b)` +
      `|gesamtbetrag|rechnungs(?:end)?betrag|rechnungssumme|bruttosumme|brutto(?:betrag)?|endbetrag|endsumme|gesamtsumme|summe\\s*brutto|gesamt\\s*brutto|zu\\s*zahlen(?:der\\s*betrag)?` +
      `|total\\s*t\\.?\\s*t\\.?\\s*c\\.?|montant\\s*t\\.?\\s*t\\.?\\s*c\\.?|(?:montant\\s*(?:de\\s*(?:la|votre)\\s*)?)?facture\\s*t\\.?\\s*t\\.?\\s*c\\.?|montant\\s*total|total\\s*[àa]\\s*payer` +
      `|totaal(?:bedrag)?(?:\\s*incl[.,]?(?:\\s*btw)?)?|te\\s*betalen|rekeningsbedrag|factuurbedrag|importe\\s*total|total\\s*(?:factura|a\\s*pagar)|totale(?:\\s*(?:fattura|documento|da\\s*pagare))?|importo\\s*totale` +
      `|valor\\s*total\\s*da\\s*nota|total\\s*(?:com\\s*iva|geral|da\\s*fatura)|valor\\s*a\\s*pagar` +
      `|[åa]\\s*betale|at\\s*betale|att\\s*betala|totalt|totalbel[øo]p|sum\\s*inkl\\.?\\s*(?:mva|moms)` +
      // Estonian, Lithuanian, Croatian, Polish and Czech: "Kokku", "Viso mokėti", "Ukupno za naplatu", "Do zapłaty", "Celkem k úhradě"
      `|(?:summa\\s*)?kokku|tasuda|viso\\s*mok[ėe]ti|i[šs]\\s*viso|(?:sve)?ukupno\\s*za\\s*(?:naplatu|platiti)|za\\s*platiti|do\\s*zap[łl]aty|razem\\s*do\\s*zap[łl]aty|celkem\\s*k\\s*[úu]hrad[ěe]|k\\s*[úu]hrad[ěe]` +
      // "Celkem s DPH", "Spolu k úhrade", "Razem brutto", "Wartość brutto"
      `|(?:celkem|spolu|celkom)\\s*(?:s\\s*dph|k\\s*[úu]hrade)|(?:razem|suma|warto[śs][ćc]|kwota)\\s*brutto)${CUR}`,
  ),
  // What is left to pay after a prepayment: the total when nothing else names one.
  L('total', 'amount', 0.9, `(?:zahlbetrag|net\\s*[àa]\\s*payer|reste\\s*[àa]\\s*payer)${CUR}`),
  // A till receipt's "SUMME" or "Summe EUR", alone: the total (longer labels, "Summe netto", win).
  L('total', 'amount', 0.85, `(?:summe|gesamt|ukupno|razem|celkem|viso|suma)${CUR}`),
  // What a till slip says was paid ("BEZAHLT (EUR): 66,60", "Amount paid"): the total when nothing names one
  // (below a labelled total, so an invoice's part payment never goes before its total).
  L('total', 'amount', 0.7, `(?:(?:total\\s*)?(?:amount\\s*)?paid|bezahlt|gezahlt|betaald|pay[ée]|pagado|pagato)${CUR}`),
  // A VAT id named with its party ("Customer VAT ID: US-TAXID-7890123", "USt-IdNr. des Kunden" is read by shape).
  L('customer_vat_id', 'vat', 1, `(?:customer|client|buyer|kunden?|k[äa]ufer|acheteur|klant|cliente)[-\\s]*${VAT_KEY}`),
  L('vendor_vat_id', 'vat', 1, `(?:supplier|seller|vendor|lieferanten?|verk[äa]ufer|fournisseur|vendeur|leverancier|proveedor|fornitore)[-\\s]*${VAT_KEY}`),
  L('currency', 'currency', 1, 'currency|(?:rechnungs)?w[äa]hrung|devise|monnaie|valuta|moneda|divisa'),
  L(
    'payment_terms',
    'text',
    1,
    'payment\\s*terms|terms\\s*(?:of\\s*payment)?|payment\\s*conditions|terms\\s*&\\s*conditions|zahlungsbedingungen|conditions\\s*de\\s*paiement|betalingsvoorwaarden|condiciones\\s*de\\s*pago|condizioni\\s*di\\s*pagamento',
  ),
  L(
    'vendor_name',
    'party',
    1,
    '(?:seller|vendor|supplier)\\s*name|from|vendor|supplier|seller|(?:nom|raison\\s*sociale|d[ée]nomination)\\s*(?:du|de\\s*l.)\\s*(?:vendeur|fournisseur|[ée]metteur)|sold\\s*by|billed\\s*by|bill\\s*from|remit\\s*to|pay\\s*to|issued\\s*by' +
      '|verk[äa]ufer|lieferant|rechnungssteller|leistungserbringer|vendeur|fournisseur|[ée]metteur|leverancier|verkoper|vendedor|proveedor|(?:datos\\s*del\\s*)?emisor|emitente|fornecedor|fornitore|venditore|cedente(?:\\s*/\\s*prestatore)?' +
      // Czech, Slovak, Polish, Croatian, Lithuanian, Estonian
      '|dodavatel|dod[áa]vate[ľl]|prodávající|sprzedawca|prodava[čc]|isporu[čc]itelj|pardav[ėe]jas|m[üu][üu]ja',
  ),
  L(
    'customer_name',
    'party',
    1,
    'bill(?:ed)?\\s*to|invoice\\s*to|sold\\s*to|customer(?!\\s+(?:copy|receipt)\\b)(?:\\s*name)?|client(?:\\s*name)?|buyer(?:\\s*name)?|(?:nom|raison\\s*sociale|d[ée]nomination)\\s*(?:du|de\\s*l.)\\s*(?:acheteur|client|destinataire)|to' +
      '|k[äa]ufer(?:\\s*/\\s*leistungsempf[äa]nger)?|rechnungsempf[äa]nger|leistungsempf[äa]nger|kunde|adresse\\s*(?:de\\s*facturation|du\\s*client)|acheteur|destinataire|factur[ée]\\s*[àa]' +
      '|klant|afnemer|factuurontvanger|cliente|comprador|destinatario|facturar\\s*a|(?:datos\\s*del\\s*)?receptor|se[ñn]or(?:\\(?es\\)?)?|sres\\.?|destinat[áa]rio|adquirente|committente|cessionario(?:\\s*/\\s*committente)?' +
      '|odb[ěe]ratel|odberate[ľl]|kupující|nabywca|kupac|pirk[ėe]jas|ostja',
  ),
  L('customer_name', 'party', 0.5, 'ship(?:ped)?\\s*to|deliver(?:y|ed)?\\s*to|adresse\\s*de\\s*livraison|lieferadresse|afleveradres'),
];

/** The longest label at the start of a phrase's text, with the text that follows it. */
// "Facture associée", "Facture liée", "related invoice", "ursprüngliche Rechnung": another document's number or date.
const OTHER_DOCUMENT =
  /^(?:associ[ée]e?s?|li[ée]e?s?|d['’]origine|initiale?|pr[ée]c[ée]dente?|original|related|referenced|corrected|bezogene?|urspr[üu]ngliche?|korrigierte?)\b/i;

export function matchLabel(text: string): { spec: LabelSpec; rest: string; length: number } | undefined {
  let best: { spec: LabelSpec; rest: string; length: number } | undefined;
  // a label set between stars or rules, as slips print their totals ("**BALANCE** $663.08", "== TOTAL =="),
  // or after its column's currency sign ("€ Netto: 1,325.00 €")
  const lead = /^(?:[*=~]{1,4}|[€$£](?=\s*\p{L}))\s*/u.exec(text)?.[0] ?? '';
  const body = text.slice(lead.length);
  for (const spec of LABELS) {
    const m = spec.pattern.exec(body);
    if (!m) continue;
    const after = body.slice(m[0].length).trim();
    if ((spec.field === 'invoice_number' || spec.field === 'invoice_date') && OTHER_DOCUMENT.test(after)) continue;
    // The start of a longer label ("Référence avis de paiement :", "Date de facture associée :"): not this one.
    // "Währung der Umsatzsteuerbuchung : EUR" (the currency tax is booked in, not the invoice's) likewise.
    if ((spec.kind === 'id' || spec.kind === 'date' || spec.kind === 'currency') && /^\p{L}[\p{L}'’\s]*\s[:：]/u.test(after)) continue;
    const length = lead.length + m[0].length;
    if (!best || length > best.length || (length === best.length && spec.weight > best.spec.weight)) {
      best = {
        spec,
        rest: text
          .slice(length)
          .replace(lead ? /^[\s:#.\-–*=~]+/ : /^[\s:#.\-–]+/, '')
          .trim(),
        length,
      };
    }
  }
  return best;
}

/** Words that title a document rather than name its sender. */
export const TITLE_WORDS =
  /^(?:tax\s+)?(?:invoice|bill|receipt|statement|credit\s*note|pro\s*forma(?:\s*invoice)?|quotation|quote|(?:handels|kosten|waren|teil|schluss|miet|abschlags|sammel|end|pro-?forma|betriebskostenab)?rechnung|gutschrift|rechnungskorrektur|facture|avoir|factuur|creditnota|factura|fattura|nota\s*di\s*credito|fatura|danfe|dte|nota\s*fiscal(?:\s*eletr[ôo]nica)?|factura\s*electr[óo]nica)$/i;

/** A document title followed by its number ("Facture FA-2017-0010", "Invoice 103767"): never a name. */
export const TITLE_WITH_ID =
  /^(?:tax\s+)?(?:invoice|bill|receipt|credit\s*note|(?:handels|kosten|waren|teil|schluss|miet|abschlags|sammel|end|pro-?forma|betriebskostenab)?rechnung|gutschrift|facture|avoir|factuur|factura|fattura)\b.*\d/i;

/** Line-item table header words by column role. */
export const COLUMN_HEADERS: { role: 'description' | 'quantity' | 'unit_price' | 'amount' | 'discount' | 'other'; pattern: RegExp }[] = [
  {
    role: 'description',
    pattern:
      /^(?:description|item(?:\s*description)?|product|service|details|particulars|article|items?\s*&\s*description|beschreibung|bezeichnung|produkt(?:\s*beschreibung)?|artikel|leistung|d[ée]signation|libell[ée]|omschrijving|descripci[óo]n|concepto|descrizione|.{1,40}[\s,&](?:d[ée]signation|description|beschreibung|bezeichnung)|[a-zäöüß]*(?:beschreibung|bezeichnung)|dienstleistung|positionstext|text|(?:item|product|produkt|article|artikel)\s*name(?:\s+(?:and|&|\/|und|et)\s+.{1,30})?|(?:artikel|produkt|article|item)\s*\/\s*(?:leistung|service|description|beschreibung)|(?:beschreibung|bezeichnung|description|d[ée]signation|descripci[óo]n|descrizione|omschrijving)\s+(?:der|des|de|del|della|of|van)\s+.{1,30}|art[íi]culo|articolo|producto|prodotto|servicio|servizio|intitul[ée]|prestation|descri[çc][ãa]o(?:\s*do\s*produto(?:\s*\/\s*servi[çc]o)?)?|beskrivelse|beskrivning|varebeskrivelse|(?:item\s*)?descr?\.)$/i,
  },
  {
    role: 'quantity',
    pattern:
      /^(?:(?:menge|anzahl|qty\.?|quantity|quantit[ée]|qt[ée]\.?|aantal|cantidad|quantit[àa])\s*(?:[/(]\s*)?(?:einheit|unit|unit[ée]|eenheid|unidad|unit[àa]|stk\.?|st\.?|pcs\.?|me)\.?\)?|liefermenge|bestellmenge|nb|tage|days|jours|dagen|d[íi]as|giorni|qty\.?|quantity|hours|hrs\.?|units|no\.\s*of\s*units|q'?ty|pcs\.?|pieces|menge|anzahl|anz\.?|st[üu]ckzahl|stk\.?|std\.?|stunden|quantit[ée]|qt[ée]\.?|nombre|aantal|aant\.?|hoeveelheid|cantidad|cant\.?|c|uds?\.?|unidades|quantit[àa]|q\.?\s?t[àa]\.?|qta\.?|pz\.?|quantidade|qtde?\.?|antall|antal)$/i,
  },
  {
    role: 'unit_price',
    pattern:
      /^(?:unit\s*price|price|rate|unit\s*cost|price\s*per\s*unit|each|unit\s*rate|hourly\s*rate|cost|(?:net|gross)\s*(?:unit\s*)?price|unit\s*(?:net|gross)\s*price|(?:einzel|netto|brutto|stück|brutto-?einzel|netto-?einzel)?preis|einzelbetrag|einzel(?:preis)?\s*(?:netto|brutto)|einzel|e-?preis|prix(?:\s*unitaire)?(?:\s*(?:h\.?t\.?|t\.?t\.?c\.?))?|p\.?u\.?(?:\s*(?:h\.?t\.?|t\.?t\.?c\.?))?|prijs|stuksprijs|eenheidsprijs|prijs\s*per\s*(?:stuk|eenheid)|precio(?:\s*unitario)?|precio\s*(?:unidad|ud\.?|unit\.?)|valor\s*unit[áa]rio|pre[çc]o\s*unit[áa]rio|v\.\s*unit(?:[áa]rio)?\.?|prezzo(?:\s*unitario)?|prezzo\s*(?:unit\.?|netto)|ep|einzelpr\.?|preis\s*(?:\/|pro|je)\s*(?:einheit|stk\.?|stück|st\.?|me)|price\s*(?:\/|per)\s*unit|prix\s*unit\.?(?:\s*h\.?t\.?)?|tarif|honoraires?|enh\.?\s*pris|enhetspris|enhedspris|styckpris)(?:\s*(?:[/(]\s*)?(?:[A-Z]{3}|[$€£])\)?)?$/i,
  },
  // Columns read but not kept (a tax rate, a position number, an article number): their cells must not land in a kept column.
  {
    role: 'other',
    pattern:
      /^(?:pos\.?|position|nr\.?|n[°º]\.?|no\.?|#|ligne|art(?:ikel)?\.?[-\s]?nr\.?.*|steuersatz|ust\.?(?:\s*%)?|mwst\.?(?:\s*%)?|vat\s*%?|tax\s*%?|tva|taux|btw|iva|igic|%\s*(?:vat|tax|tva|btw|iva|igic|mwst|ust)|(?:cuota|importe|tasa|tipo)\s*(?:iva|igic)|(?:vat|tax|tva|btw|mwst|ust)\s*(?:amount|montant|betrag|bedrag)|montant\s*tva|unit|einheit|clave\s*unidad|unidad|code|c[óo]digo|codice|recargo|ref\.?|(?:item|product|article|part|sku)\s*(?:code|no\.?|nr\.?|number|#|id))$/i,
  },
  // A discount on the line, in per cent: read to work out the net unit price, not kept.
  {
    role: 'discount',
    pattern: /^(?:rem\.?|remise|rabatt|disc\.?|discount|sconto|descuento|dto\.?|korting)(?:\s*%|\s*\(%\))?$/i,
  },
  {
    role: 'amount',
    pattern:
      /^(?:amount|total|line\s*(?:total|amount)|(?:net|gross)\s*amount|net\s*total|positions?betrag|ext\.?\s*(?:price|amount)|extended|subtotal|value|sum|gesamt(?:betrag|preis)?(?:\s*(?:netto|brutto))?|gp|g-?preis|preis\s*gesamt|total\s*price|prezzo\s*totale|precio\s*total|summe\s*(?:netto|brutto)|betrag|(?:netto|brutto)(?:betrag|summe)?|summe|montant(?:\s*(?:h\.?t\.?|t\.?t\.?c\.?))?|total\s*(?:h\.?t\.?|t\.?t\.?c\.?)|prix\s*(?:total\s*)?h\.?t\.?|bedrag|totaal(?:\s*bedrag|bedrag)?|importe(?:\s*(?:neto|total))?|importo(?:\s*(?:netto|totale))?|totale(?:\s*riga)?|base\s*imponible|imponibile|valor\s*total|total\s*item|charges?|cargos?|d[ée]bits?|bel[øo]p|belopp|bel[øo]b)(?:\s*(?:[/(]\s*)?(?:[A-Z]{3}|[$€£])\)?)?$/i,
  },
];
