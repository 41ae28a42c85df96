// ONE registry of the names shops' platforms, the apps that export from them and spreadsheets in several languages
// give the columns of their exports, and what trk makes of each: the request field a column holds, the columns that
// stand in for the carrier where the carrier column is empty, the columns whose values make a carrier's extra
// parameter, and the columns that describe the order rather than its parcel. Names are compared folded
// (items/fields.ts normaliseName): `Tracking No.` is `tracking_no`, `Numéro de suivi` is `numero_de_suivi`.

import type { ItemField } from '@trk/service/fields.js';

/**
 * Other names of a field's column. The order counts: of two columns of one field (not the number or a carrier), the
 * one named earlier here is read.
 */
export const FIELD_COLUMNS: Readonly<Partial<Record<ItemField, readonly string[]>>> = {
  number: [
    'Tracking Number',
    'TrackingNumber',
    'Tracking No.',
    'Tracking #',
    'Tracking Code',
    'Tracking ID',
    'Tracking Numbers',
    'Tracking Number(s)',
    'Shipment Tracking Number',
    'No',
    'Sendungsnummer',
    'Sendungsverfolgungsnummer',
    'Trackingnummer',
    'Tracking-Nummer',
    'Numéro de suivi',
    'Numéro de suivi colis',
    'Número de seguimiento',
    'Codice di tracciabilità',
    'Numero di tracciamento',
    'Track & Trace',
    '追踪号',
    '运单号',
    '快递单号',
    '物流单号',
  ],
  carrier: [
    'Tracking Company',
    'Tracking Provider',
    'Shipping Carrier',
    'Carrier Name',
    'Courier',
    'Shipping Company',
    'Shipping Provider',
    'Versanddienstleister',
    'Paketdienst',
    'Transporteur',
    'Transportista',
    'Corriere',
    'Vervoerder',
    '承运商',
    '物流商',
    // v1 answers (what `trk list --json` prints against v1) call the carriers w1 and w2.
    'w1',
  ],
  email: [
    'Email',
    'E-Mail',
    'Customer Email',
    'Billing Email',
    'Buyer Email',
    'Recipient Email',
    'E-Mail-Adresse',
    'Adresse e-mail',
    'Courriel',
    'Correo electrónico',
    'Indirizzo email',
  ],
  final_carrier: ['w2'],
  order_no: [
    'Order',
    'Order #',
    'Order No',
    'Order Number',
    'Order ID',
    'Order Name',
    'Bestellnummer',
    'Numéro de commande',
    'Número de pedido',
    'Numero ordine',
    'Ordernummer',
    '订单号',
  ],
};

/**
 * Names that mean a field only in one platform's export, known by another of its columns (`mark`): Shopify's orders
 * export calls the order number `Name` (`#1001`), beside its `Lineitem name`; elsewhere a `Name` is a customer's.
 */
export const PLATFORM_COLUMNS: readonly { mark: string; columns: Readonly<Record<string, ItemField>> }[] = [
  { mark: 'Lineitem name', columns: { Name: 'order_no' } },
  // Export apps' orders exports (`Line: Type`, `Line: Title` beside the order's `Name`).
  { mark: 'Line: Type', columns: { Name: 'order_no' } },
];

/**
 * What export apps write before a platform's own column names (`Fulfillment: Tracking Number`, `Shipping: Zip`,
 * `Line: Title`): a header cell `PREFIX: NAME` that is no known name as a whole is read by its NAME.
 */
export const COLUMN_PREFIXES: readonly string[] = [
  'Fulfillment',
  'Fulfillments',
  'Shipping',
  'Shipping Address',
  'Shipping Line',
  'Billing',
  'Billing Address',
  'Line',
  'Line Item',
  'Customer',
  'Order',
  'Transaction',
  'Tracking',
];

/**
 * Columns of the carrier a shop typed itself, filled where the carrier column is left empty: WooCommerce's Shipment
 * Tracking writes `Custom Tracking Provider` ("Evri") with `Tracking Provider` empty. An unknown name there is
 * refused like one in the carrier column.
 */
export const CARRIER_FILL_COLUMNS: readonly string[] = [
  'Custom Tracking Provider',
  'Custom Provider',
  'Custom Carrier',
  'Other Carrier',
];

/**
 * Columns naming the shipping service (ShipStation's `Service` "UPS® Ground", Sendcloud's `Shipping method` "DHL
 * Paket 0-31.5kg"): read as the carrier where the carrier column is empty, says none, or names several carriers,
 * and only where the service names one carrier beyond doubt (one the carrier column allows); otherwise passed over
 * without a word, since most services name no carrier ("Standard").
 */
export const SERVICE_COLUMNS: readonly string[] = [
  'Service',
  'Shipping Service',
  'Shipping Method',
  'Carrier Service',
  'Service Level',
  'Versandart',
  'Versandmethode',
  'Mode de livraison',
  'Método de envío',
];

/** Where a carrier's param's values come from (service/param-forms.ts says which carrier needs which). */
export type ParamSource = 'postal_code' | 'country' | 'phone';

/**
 * Columns of the recipient's postal code, country and phone. The order counts (the earlier is read): the shipping
 * address's before a plain one, never the billing address's, which is not where the parcel goes.
 */
export const PARAM_SOURCE_COLUMNS: Readonly<Record<ParamSource, readonly string[]>> = {
  postal_code: [
    'Shipping Zip',
    'Shipping Postal Code',
    'Shipping Postcode',
    'Ship To Postal Code',
    'Recipient Postal Code',
    'Recipient Zip',
    'Postal Code',
    'Postcode',
    'Post Code',
    'Zip',
    'ZIP Code',
    'Zipcode',
    'PLZ',
    'Postleitzahl',
    'Code postal',
    'Código postal',
    'CAP',
    '邮编',
  ],
  country: [
    'Shipping Country Code',
    'Shipping Country',
    'Ship To Country',
    'Recipient Country',
    'Destination Country',
    'Country Code',
    'Country',
    'Land',
    'Pays',
    'País',
    'Paese',
  ],
  phone: [
    'Shipping Phone',
    'Ship To Phone',
    'Recipient Phone',
    'Phone',
    'Phone Number',
    'Telephone',
    'Telefon',
    'Telefonnummer',
    'Téléphone',
    'Teléfono',
    'Telefono',
    '电话',
  ],
};

/**
 * Columns that describe the order rather than its parcel (tags, notes, totals, addresses): passed over with the
 * other columns a command does not use, and never taken for a misspelt field (`Tags` is not a typo of `tag`). A
 * shop that wants its tags sent maps them: `--column Tags=tag`.
 */
export const ORDER_COLUMNS: readonly string[] = [
  'Tags',
  'Notes',
  'Note',
  'Note Attributes',
  'Total',
  'Subtotal',
  'Taxes',
  'Currency',
  'Discount Code',
  'Discount Amount',
  'Shipping',
  'Shipping Name',
  'Shipping Address1',
  'Shipping Address2',
  'Shipping City',
  'Shipping Province',
  'Billing Name',
  'Billing Zip',
  'Billing Phone',
  'Billing Country',
];
