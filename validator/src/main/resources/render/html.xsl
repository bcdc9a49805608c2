<?xml version="1.0" encoding="UTF-8"?>
<!--
  The HTML page: KoSIT's viewer (xrechnung-html.univ.xsl) with our labels for every label variable it
  reads, the intermediate form tidied (common.xsl), and its page finished for the language: the viewer
  writes every amount and date the German way and a disclaimer above each tab, whatever the language.
  What is declared here takes precedence over what the import declares.
-->
<xsl:stylesheet version="3.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xs="http://www.w3.org/2001/XMLSchema"
                xmlns:xr="urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1"
                xmlns:er="urn:einvoice:render"
                exclude-result-prefixes="xs xr er">

  <xsl:import href="../stylesheets/xrechnung-html.univ.xsl"/>
  <xsl:include href="common.xsl"/>

  <xsl:output method="html" indent="yes" encoding="UTF-8"/>

  <xsl:template match="/">
    <xsl:variable name="page">
      <xsl:apply-templates select="er:tidy(.)/xr:invoice"/>
    </xsl:variable>
    <xsl:apply-templates select="$page" mode="er:localise"/>
  </xsl:template>

  <!-- The value boxes (titled by their business term) the viewer fills with a German number or date. -->
  <xsl:variable name="er:number-terms" select="('BT-92', 'BT-93', 'BT-99', 'BT-100', 'BT-106', 'BT-107', 'BT-108', 'BT-109', 'BT-110',
      'BT-111', 'BT-112', 'BT-113', 'BT-114', 'BT-115', 'BT-116', 'BT-117', 'BT-131', 'BT-136', 'BT-137', 'BT-138', 'BT-141', 'BT-142',
      'BT-143', 'BT-146', 'BT-147', 'BT-148', 'BT-152', 'BT-X-272')"/>
  <!-- The value boxes the viewer fills with the number as the document writes it (a decimal point, no grouping). -->
  <xsl:variable name="er:plain-number-terms" select="('BT-94', 'BT-96', 'BT-101', 'BT-103', 'BT-119', 'BT-129', 'BT-149')"/>
  <xsl:variable name="er:date-terms" select="('BT-2', 'BT-7', 'BT-9', 'BT-26', 'BT-72', 'BT-73', 'BT-74', 'BT-134', 'BT-135')"/>
  <xsl:variable name="er:date-picture" select="er:pick($er:labels[tokenize(@pdf) = 'date-format'])"/>

  <xsl:mode name="er:localise" on-no-match="shallow-copy"/>

  <xsl:template mode="er:localise" match="html/@lang">
    <xsl:attribute name="lang" select="$lang"/>
  </xsl:template>

  <xsl:template mode="er:localise" match="div[@class = 'haftungausschluss']"/>

  <!-- The viewer's "1.234,50" in the language's separators (it rounds as it wrote it: no digit is added or lost). -->
  <xsl:template mode="er:localise" match="div[@title = $er:number-terms]/text()">
    <xsl:value-of select="if ($lang = 'en') then translate(., '.,', ',.') else if ($lang = 'fr') then translate(., '.', '&#160;') else ."/>
  </xsl:template>

  <xsl:template mode="er:localise" match="div[@title = $er:plain-number-terms]/text()">
    <xsl:value-of select="if ($lang = 'en') then . else translate(., '.', ',')"/>
  </xsl:template>

  <!-- The viewer marks amounts as net or gross in German. -->
  <xsl:template mode="er:localise" match="div[contains-token(@class, 'color2')]/text()[normalize-space() = ('netto', 'brutto')]">
    <xsl:variable name="key" select="if (normalize-space() = 'netto') then '_net' else '_gross'"/>
    <xsl:value-of select="er:pick($er:labels[tokenize(@pdf) = $key])"/>
  </xsl:template>

  <!--
    The viewer's "1.2.2026" as the language writes a date. For BT-26 the viewer writes the ISO date as it came
    followed by its date picture, or the picture alone when there is no date: the date is formatted, the picture dropped.
  -->
  <xsl:template mode="er:localise" match="div[@title = $er:date-terms]/text()">
    <xsl:analyze-string select="." regex="(\d{{4}})-(\d{{2}})-(\d{{2}}).*|(\d{{1,2}})\.(\d{{1,2}})\.(\d{{4}})">
      <xsl:matching-substring>
        <xsl:variable name="date" select="if (regex-group(1)) then xs:date(regex-group(1) || '-' || regex-group(2) || '-' || regex-group(3))
            else xs:date(regex-group(6) || '-' || format-number(xs:integer(regex-group(5)), '00') || '-' || format-number(xs:integer(regex-group(4)), '00'))"/>
        <xsl:value-of select="format-date($date, $er:date-picture)"/>
      </xsl:matching-substring>
      <xsl:non-matching-substring>
        <xsl:value-of select="replace(., '\[D\]\.\[M\]\.\[Y\]', '')"/>
      </xsl:non-matching-substring>
    </xsl:analyze-string>
  </xsl:template>

  <!-- The viewer's disclaimer is its own, not the document's: the boxes that would hold it are dropped above. -->
  <xsl:variable name="i18n.disclaimer" select="''"/>

  <!-- Every other label variable the viewer reads, each from labels.xml by its name. -->
  <xsl:variable name="i18n.attachments" select="er:html-label('attachments')"/>
  <xsl:variable name="i18n.bg1" select="er:html-label('bg1')"/>
  <xsl:variable name="i18n.bg10" select="er:html-label('bg10')"/>
  <xsl:variable name="i18n.bg11" select="er:html-label('bg11')"/>
  <xsl:variable name="i18n.bg13" select="er:html-label('bg13')"/>
  <xsl:variable name="i18n.bg17" select="er:html-label('bg17')"/>
  <xsl:variable name="i18n.bg18" select="er:html-label('bg18')"/>
  <xsl:variable name="i18n.bg19" select="er:html-label('bg19')"/>
  <xsl:variable name="i18n.bg20" select="er:html-label('bg20')"/>
  <xsl:variable name="i18n.bg21" select="er:html-label('bg21')"/>
  <xsl:variable name="i18n.bg22" select="er:html-label('bg22')"/>
  <xsl:variable name="i18n.bg23" select="er:html-label('bg23')"/>
  <xsl:variable name="i18n.bg24" select="er:html-label('bg24')"/>
  <xsl:variable name="i18n.bg26" select="er:html-label('bg26')"/>
  <xsl:variable name="i18n.bg27" select="er:html-label('bg27')"/>
  <xsl:variable name="i18n.bg28" select="er:html-label('bg28')"/>
  <xsl:variable name="i18n.bg29" select="er:html-label('bg29')"/>
  <xsl:variable name="i18n.bg31" select="er:html-label('bg31')"/>
  <xsl:variable name="i18n.bg32" select="er:html-label('bg32')"/>
  <xsl:variable name="i18n.bg4" select="er:html-label('bg4')"/>
  <xsl:variable name="i18n.bg7" select="er:html-label('bg7')"/>
  <xsl:variable name="i18n.bgx42" select="er:html-label('bgx42')"/>
  <xsl:variable name="i18n.bt1" select="er:html-label('bt1')"/>
  <xsl:variable name="i18n.bt10" select="er:html-label('bt10')"/>
  <xsl:variable name="i18n.bt100" select="er:html-label('bt100')"/>
  <xsl:variable name="i18n.bt101" select="er:html-label('bt101')"/>
  <xsl:variable name="i18n.bt102" select="er:html-label('bt102')"/>
  <xsl:variable name="i18n.bt103" select="er:html-label('bt103')"/>
  <xsl:variable name="i18n.bt104" select="er:html-label('bt104')"/>
  <xsl:variable name="i18n.bt105" select="er:html-label('bt105')"/>
  <xsl:variable name="i18n.bt106" select="er:html-label('bt106')"/>
  <xsl:variable name="i18n.bt107" select="er:html-label('bt107')"/>
  <xsl:variable name="i18n.bt108" select="er:html-label('bt108')"/>
  <xsl:variable name="i18n.bt109" select="er:html-label('bt109')"/>
  <xsl:variable name="i18n.bt11" select="er:html-label('bt11')"/>
  <xsl:variable name="i18n.bt110" select="er:html-label('bt110')"/>
  <xsl:variable name="i18n.bt111" select="er:html-label('bt111')"/>
  <xsl:variable name="i18n.bt112" select="er:html-label('bt112')"/>
  <xsl:variable name="i18n.bt113" select="er:html-label('bt113')"/>
  <xsl:variable name="i18n.bt114" select="er:html-label('bt114')"/>
  <xsl:variable name="i18n.bt115" select="er:html-label('bt115')"/>
  <xsl:variable name="i18n.bt116" select="er:html-label('bt116')"/>
  <xsl:variable name="i18n.bt117" select="er:html-label('bt117')"/>
  <xsl:variable name="i18n.bt118" select="er:html-label('bt118')"/>
  <xsl:variable name="i18n.bt119" select="er:html-label('bt119')"/>
  <xsl:variable name="i18n.bt12" select="er:html-label('bt12')"/>
  <xsl:variable name="i18n.bt120" select="er:html-label('bt120')"/>
  <xsl:variable name="i18n.bt121" select="er:html-label('bt121')"/>
  <xsl:variable name="i18n.bt122" select="er:html-label('bt122')"/>
  <xsl:variable name="i18n.bt123" select="er:html-label('bt123')"/>
  <xsl:variable name="i18n.bt124" select="er:html-label('bt124')"/>
  <xsl:variable name="i18n.bt125" select="er:html-label('bt125')"/>
  <xsl:variable name="i18n.bt125-format" select="er:html-label('bt125-format')"/>
  <xsl:variable name="i18n.bt125-name" select="er:html-label('bt125-name')"/>
  <xsl:variable name="i18n.bt126" select="er:html-label('bt126')"/>
  <xsl:variable name="i18n.bt127" select="er:html-label('bt127')"/>
  <xsl:variable name="i18n.bt128" select="er:html-label('bt128')"/>
  <xsl:variable name="i18n.bt128-id" select="er:html-label('bt128-id')"/>
  <xsl:variable name="i18n.bt129" select="er:html-label('bt129')"/>
  <xsl:variable name="i18n.bt13" select="er:html-label('bt13')"/>
  <xsl:variable name="i18n.bt130" select="er:html-label('bt130')"/>
  <xsl:variable name="i18n.bt131" select="er:html-label('bt131')"/>
  <xsl:variable name="i18n.bt132" select="er:html-label('bt132')"/>
  <xsl:variable name="i18n.bt133" select="er:html-label('bt133')"/>
  <xsl:variable name="i18n.bt134" select="er:html-label('bt134')"/>
  <xsl:variable name="i18n.bt135" select="er:html-label('bt135')"/>
  <xsl:variable name="i18n.bt136" select="er:html-label('bt136')"/>
  <xsl:variable name="i18n.bt137" select="er:html-label('bt137')"/>
  <xsl:variable name="i18n.bt138" select="er:html-label('bt138')"/>
  <xsl:variable name="i18n.bt139" select="er:html-label('bt139')"/>
  <xsl:variable name="i18n.bt14" select="er:html-label('bt14')"/>
  <xsl:variable name="i18n.bt140" select="er:html-label('bt140')"/>
  <xsl:variable name="i18n.bt141" select="er:html-label('bt141')"/>
  <xsl:variable name="i18n.bt142" select="er:html-label('bt142')"/>
  <xsl:variable name="i18n.bt143" select="er:html-label('bt143')"/>
  <xsl:variable name="i18n.bt144" select="er:html-label('bt144')"/>
  <xsl:variable name="i18n.bt145" select="er:html-label('bt145')"/>
  <xsl:variable name="i18n.bt146" select="er:html-label('bt146')"/>
  <xsl:variable name="i18n.bt147" select="er:html-label('bt147')"/>
  <xsl:variable name="i18n.bt148" select="er:html-label('bt148')"/>
  <xsl:variable name="i18n.bt149" select="er:html-label('bt149')"/>
  <xsl:variable name="i18n.bt15" select="er:html-label('bt15')"/>
  <xsl:variable name="i18n.bt150" select="er:html-label('bt150')"/>
  <xsl:variable name="i18n.bt151" select="er:html-label('bt151')"/>
  <xsl:variable name="i18n.bt152" select="er:html-label('bt152')"/>
  <xsl:variable name="i18n.bt153" select="er:html-label('bt153')"/>
  <xsl:variable name="i18n.bt154" select="er:html-label('bt154')"/>
  <xsl:variable name="i18n.bt155" select="er:html-label('bt155')"/>
  <xsl:variable name="i18n.bt156" select="er:html-label('bt156')"/>
  <xsl:variable name="i18n.bt157" select="er:html-label('bt157')"/>
  <xsl:variable name="i18n.bt157-id" select="er:html-label('bt157-id')"/>
  <xsl:variable name="i18n.bt157-vers-id" select="er:html-label('bt157-vers-id')"/>
  <xsl:variable name="i18n.bt158" select="er:html-label('bt158')"/>
  <xsl:variable name="i18n.bt158-id" select="er:html-label('bt158-id')"/>
  <xsl:variable name="i18n.bt159" select="er:html-label('bt159')"/>
  <xsl:variable name="i18n.bt16" select="er:html-label('bt16')"/>
  <xsl:variable name="i18n.bt162" select="er:html-label('bt162')"/>
  <xsl:variable name="i18n.bt163" select="er:html-label('bt163')"/>
  <xsl:variable name="i18n.bt164" select="er:html-label('bt164')"/>
  <xsl:variable name="i18n.bt165" select="er:html-label('bt165')"/>
  <xsl:variable name="i18n.bt17" select="er:html-label('bt17')"/>
  <xsl:variable name="i18n.bt18" select="er:html-label('bt18')"/>
  <xsl:variable name="i18n.bt18-id" select="er:html-label('bt18-id')"/>
  <xsl:variable name="i18n.bt19" select="er:html-label('bt19')"/>
  <xsl:variable name="i18n.bt2" select="er:html-label('bt2')"/>
  <xsl:variable name="i18n.bt20" select="er:html-label('bt20')"/>
  <xsl:variable name="i18n.bt21" select="er:html-label('bt21')"/>
  <xsl:variable name="i18n.bt22" select="er:html-label('bt22')"/>
  <xsl:variable name="i18n.bt23" select="er:html-label('bt23')"/>
  <xsl:variable name="i18n.bt24" select="er:html-label('bt24')"/>
  <xsl:variable name="i18n.bt25" select="er:html-label('bt25')"/>
  <xsl:variable name="i18n.bt26" select="er:html-label('bt26')"/>
  <xsl:variable name="i18n.bt27" select="er:html-label('bt27')"/>
  <xsl:variable name="i18n.bt28" select="er:html-label('bt28')"/>
  <xsl:variable name="i18n.bt29" select="er:html-label('bt29')"/>
  <xsl:variable name="i18n.bt29-id" select="er:html-label('bt29-id')"/>
  <xsl:variable name="i18n.bt3" select="er:html-label('bt3')"/>
  <xsl:variable name="i18n.bt30" select="er:html-label('bt30')"/>
  <xsl:variable name="i18n.bt31" select="er:html-label('bt31')"/>
  <xsl:variable name="i18n.bt32" select="er:html-label('bt32')"/>
  <xsl:variable name="i18n.bt32-schema" select="er:html-label('bt32-schema')"/>
  <xsl:variable name="i18n.bt33" select="er:html-label('bt33')"/>
  <xsl:variable name="i18n.bt34" select="er:html-label('bt34')"/>
  <xsl:variable name="i18n.bt34-id" select="er:html-label('bt34-id')"/>
  <xsl:variable name="i18n.bt35" select="er:html-label('bt35')"/>
  <xsl:variable name="i18n.bt36" select="er:html-label('bt36')"/>
  <xsl:variable name="i18n.bt37" select="er:html-label('bt37')"/>
  <xsl:variable name="i18n.bt38" select="er:html-label('bt38')"/>
  <xsl:variable name="i18n.bt39" select="er:html-label('bt39')"/>
  <xsl:variable name="i18n.bt40" select="er:html-label('bt40')"/>
  <xsl:variable name="i18n.bt41" select="er:html-label('bt41')"/>
  <xsl:variable name="i18n.bt42" select="er:html-label('bt42')"/>
  <xsl:variable name="i18n.bt43" select="er:html-label('bt43')"/>
  <xsl:variable name="i18n.bt44" select="er:html-label('bt44')"/>
  <xsl:variable name="i18n.bt45" select="er:html-label('bt45')"/>
  <xsl:variable name="i18n.bt46" select="er:html-label('bt46')"/>
  <xsl:variable name="i18n.bt46-id" select="er:html-label('bt46-id')"/>
  <xsl:variable name="i18n.bt47" select="er:html-label('bt47')"/>
  <xsl:variable name="i18n.bt47-id" select="er:html-label('bt47-id')"/>
  <xsl:variable name="i18n.bt48" select="er:html-label('bt48')"/>
  <xsl:variable name="i18n.bt49" select="er:html-label('bt49')"/>
  <xsl:variable name="i18n.bt49-id" select="er:html-label('bt49-id')"/>
  <xsl:variable name="i18n.bt5" select="er:html-label('bt5')"/>
  <xsl:variable name="i18n.bt50" select="er:html-label('bt50')"/>
  <xsl:variable name="i18n.bt51" select="er:html-label('bt51')"/>
  <xsl:variable name="i18n.bt52" select="er:html-label('bt52')"/>
  <xsl:variable name="i18n.bt53" select="er:html-label('bt53')"/>
  <xsl:variable name="i18n.bt54" select="er:html-label('bt54')"/>
  <xsl:variable name="i18n.bt55" select="er:html-label('bt55')"/>
  <xsl:variable name="i18n.bt56" select="er:html-label('bt56')"/>
  <xsl:variable name="i18n.bt57" select="er:html-label('bt57')"/>
  <xsl:variable name="i18n.bt58" select="er:html-label('bt58')"/>
  <xsl:variable name="i18n.bt59" select="er:html-label('bt59')"/>
  <xsl:variable name="i18n.bt6" select="er:html-label('bt6')"/>
  <xsl:variable name="i18n.bt60" select="er:html-label('bt60')"/>
  <xsl:variable name="i18n.bt60-id" select="er:html-label('bt60-id')"/>
  <xsl:variable name="i18n.bt61" select="er:html-label('bt61')"/>
  <xsl:variable name="i18n.bt61-id" select="er:html-label('bt61-id')"/>
  <xsl:variable name="i18n.bt62" select="er:html-label('bt62')"/>
  <xsl:variable name="i18n.bt63" select="er:html-label('bt63')"/>
  <xsl:variable name="i18n.bt64" select="er:html-label('bt64')"/>
  <xsl:variable name="i18n.bt65" select="er:html-label('bt65')"/>
  <xsl:variable name="i18n.bt66" select="er:html-label('bt66')"/>
  <xsl:variable name="i18n.bt67" select="er:html-label('bt67')"/>
  <xsl:variable name="i18n.bt68" select="er:html-label('bt68')"/>
  <xsl:variable name="i18n.bt69" select="er:html-label('bt69')"/>
  <xsl:variable name="i18n.bt7" select="er:html-label('bt7')"/>
  <xsl:variable name="i18n.bt70" select="er:html-label('bt70')"/>
  <xsl:variable name="i18n.bt71" select="er:html-label('bt71')"/>
  <xsl:variable name="i18n.bt71-id" select="er:html-label('bt71-id')"/>
  <xsl:variable name="i18n.bt72" select="er:html-label('bt72')"/>
  <xsl:variable name="i18n.bt73" select="er:html-label('bt73')"/>
  <xsl:variable name="i18n.bt74" select="er:html-label('bt74')"/>
  <xsl:variable name="i18n.bt75" select="er:html-label('bt75')"/>
  <xsl:variable name="i18n.bt76" select="er:html-label('bt76')"/>
  <xsl:variable name="i18n.bt77" select="er:html-label('bt77')"/>
  <xsl:variable name="i18n.bt78" select="er:html-label('bt78')"/>
  <xsl:variable name="i18n.bt79" select="er:html-label('bt79')"/>
  <xsl:variable name="i18n.bt8" select="er:html-label('bt8')"/>
  <xsl:variable name="i18n.bt80" select="er:html-label('bt80')"/>
  <xsl:variable name="i18n.bt81" select="er:html-label('bt81')"/>
  <xsl:variable name="i18n.bt82" select="er:html-label('bt82')"/>
  <xsl:variable name="i18n.bt83" select="er:html-label('bt83')"/>
  <xsl:variable name="i18n.bt84" select="er:html-label('bt84')"/>
  <xsl:variable name="i18n.bt85" select="er:html-label('bt85')"/>
  <xsl:variable name="i18n.bt86" select="er:html-label('bt86')"/>
  <xsl:variable name="i18n.bt87" select="er:html-label('bt87')"/>
  <xsl:variable name="i18n.bt88" select="er:html-label('bt88')"/>
  <xsl:variable name="i18n.bt89" select="er:html-label('bt89')"/>
  <xsl:variable name="i18n.bt9" select="er:html-label('bt9')"/>
  <xsl:variable name="i18n.bt90" select="er:html-label('bt90')"/>
  <xsl:variable name="i18n.bt91" select="er:html-label('bt91')"/>
  <xsl:variable name="i18n.bt92" select="er:html-label('bt92')"/>
  <xsl:variable name="i18n.bt93" select="er:html-label('bt93')"/>
  <xsl:variable name="i18n.bt94" select="er:html-label('bt94')"/>
  <xsl:variable name="i18n.bt95" select="er:html-label('bt95')"/>
  <xsl:variable name="i18n.bt96" select="er:html-label('bt96')"/>
  <xsl:variable name="i18n.bt97" select="er:html-label('bt97')"/>
  <xsl:variable name="i18n.bt98" select="er:html-label('bt98')"/>
  <xsl:variable name="i18n.bt99" select="er:html-label('bt99')"/>
  <xsl:variable name="i18n.btx202" select="er:html-label('btx202')"/>
  <xsl:variable name="i18n.btx271" select="er:html-label('btx271')"/>
  <xsl:variable name="i18n.btx272" select="er:html-label('btx272')"/>
  <xsl:variable name="i18n.btx273" select="er:html-label('btx273')"/>
  <xsl:variable name="i18n.btx274" select="er:html-label('btx274')"/>
  <xsl:variable name="i18n.contract_information" select="er:html-label('contract_information')"/>
  <xsl:variable name="i18n.dateOf" select="er:html-label('dateOf')"/>
  <xsl:variable name="i18n.details" select="er:html-label('details')"/>
  <xsl:variable name="i18n.history" select="er:html-label('history')"/>
  <xsl:variable name="i18n.historyDate" select="er:html-label('historyDate')"/>
  <xsl:variable name="i18n.historyDetails" select="er:html-label('historyDetails')"/>
  <xsl:variable name="i18n.historySubject" select="er:html-label('historySubject')"/>
  <xsl:variable name="i18n.historyText" select="er:html-label('historyText')"/>
  <xsl:variable name="i18n.information" select="er:html-label('information')"/>
  <xsl:variable name="i18n.items" select="er:html-label('items')"/>
  <xsl:variable name="i18n.overview" select="er:html-label('overview')"/>
  <xsl:variable name="i18n.payment" select="er:html-label('payment')"/>
  <xsl:variable name="i18n.period" select="er:html-label('period')"/>
  <xsl:variable name="i18n.preceding_invoice_reference" select="er:html-label('preceding_invoice_reference')"/>
  <xsl:variable name="i18n.recipientInfo" select="er:html-label('recipientInfo')"/>
  <xsl:variable name="i18n.title" select="er:html-label('title')"/>
</xsl:stylesheet>
