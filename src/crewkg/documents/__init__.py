"""The clerk's file (issue 47): documents an authority can work from, made from the answers and never a second
reading of the law.

- `draft`: a draft of a decision (Bescheid, §§ 56–61 AVG), of a request to complete the application (§ 13 Abs. 3
  AVG) or of a letter on the result of the taking of evidence (§ 45 Abs. 3 AVG), as data (`draft.build`: the JSON a
  case-file system reads, its sections naming the PROV IRIs of the export they rest on) and as a page
  (`pages`: HTML from a Jinja2 template, PDF/A by WeasyPrint). It proposes; the authority decides, weighs the
  evidence, writes its own header and Rechtsmittelbelehrung (`authority`: a file of its own, inserted as given) and
  signs. The sentences of the Begründung come from the explanation tree (`answers.explanation`) and the check answer
  (`reasons`).
- `credential`: a certificate the record holds as an unsigned European Digital Credential (ELM v3, EDC profile) in
  JSON-LD, with a rendered page image (`card`), checked offline against the official shapes and contexts bundled in
  `edc/` (`conformance`). Sealing it is the authority's.

Above the careers (the credential's page is drawn the careers' way, `careers.pictures`), below the API:
`crewkg.api.draft` and `crewkg.api.credential` are the way in for the CLI and the HTTP service."""
