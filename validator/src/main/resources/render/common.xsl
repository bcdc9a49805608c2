<?xml version="1.0" encoding="UTF-8"?>
<!--
  What the PDF and the HTML renderings share on top of KoSIT's viewer: the language, our labels
  (labels.xml) chosen for the document's kind, and the intermediate form tidied for a reader before
  the viewer lays it out.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:xr="urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1"
                xmlns:er="urn:einvoice:render"
                exclude-result-prefixes="xs er">

  <!-- One of the languages labels.xml has a column for (the validator checks it before rendering). -->
  <xsl:param name="lang" as="xs:string" select="'en'"/>

  <!--
    EN 16931's credit note type codes (UNCL 1001's credit note subset). The intermediate form writes BT-3 as
    "381 (Credit note)", for an Invoice and a CreditNote alike. Evaluated against the global context item,
    the intermediate form as the viewer got it.
  -->
  <xsl:variable name="er:credit-note" as="xs:boolean"
                select="tokenize(normalize-space(/xr:invoice/xr:Invoice_type_code))[1] = ('81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532')"/>

  <xsl:variable name="er:labels" as="element(label)*" select="doc('labels.xml')/labels/label"/>

  <!-- The label of those given that suits the document (a credit note's own where it has one), in the language. -->
  <xsl:function name="er:pick" as="xs:string?">
    <xsl:param name="candidates" as="element(label)*"/>
    <xsl:variable name="label" select="($candidates[$er:credit-note and @for = 'credit-note'], $candidates[not(@for)])[1]"/>
    <xsl:sequence select="$label/@*[local-name() = $lang]/string()"/>
  </xsl:function>

  <!-- The label of an HTML variable (i18n.<name>); a missing one shows as ???name??? so that the tests see it. -->
  <xsl:function name="er:html-label" as="xs:string">
    <xsl:param name="name" as="xs:string"/>
    <xsl:sequence select="(er:pick($er:labels[tokenize(@html) = $name]), '???' || $name || '???')[1]"/>
  </xsl:function>

  <!--
    The intermediate form as a reader wants it shown: a trading name that is the legal name again is no
    different name, and a country is named in the language (the viewer's code lists name countries in
    German whatever the language; er:country-name is the JDK's locale data, registered by the Renderer).
  -->
  <xsl:function name="er:tidy" as="document-node()">
    <xsl:param name="intermediate" as="document-node()"/>
    <xsl:document>
      <xsl:apply-templates select="$intermediate/node()" mode="er:tidy"/>
    </xsl:document>
  </xsl:function>

  <xsl:mode name="er:tidy" on-no-match="shallow-copy"/>

  <xsl:template mode="er:tidy" match="xr:Seller_trading_name[normalize-space() = normalize-space(../xr:Seller_name)]
                                      | xr:Buyer_trading_name[normalize-space() = normalize-space(../xr:Buyer_name)]"/>

  <xsl:template mode="er:tidy" match="xr:*[ends-with(local-name(), '_country_code') or local-name() = 'Item_country_of_origin']/text()">
    <xsl:variable name="code" select="substring-before(normalize-space() || ' ', ' ')"/>
    <xsl:variable name="name" select="er:country-name($code, $lang)"/>
    <xsl:value-of select="if ($name) then $code || ' (' || $name || ')' else ."/>
  </xsl:template>
</xsl:stylesheet>
