#!/usr/bin/env python3
"""One line from `flyr-synth evaluate --json` output (read on stdin): precision, recall,
accuracy of links with confidence >= 0.9 and, when unit scores follow, the townhouse numbers."""
import json, sys

label = sys.argv[1]
text = sys.stdin.read()
decoder = json.JSONDecoder()
docs, i = [], 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    doc, i = decoder.raw_decode(text, i)
    docs.append(doc)
r = docs[0]
o = r["overall"]
line = "%-28s precision %.4f  recall %.4f  conf>=0.9 accuracy %.4f" % (label, o["precision"], o["recall"], r["highConfidenceAccuracy"])
if len(docs) > 1:
    u = docs[1]
    rows = u["rowsSplitExactly"] / u["townhouseRows"]
    non = (u["apartmentBlocksSplit"] + u["housesSplit"]) / (u["apartmentBlocks"] + u["houses"])
    unit = u["addressesInTrueUnit"] / u["townhouseAddresses"]
    line += "  rows split exactly %.4f  non-rows split %.4f  in true unit %.4f" % (rows, non, unit)
print(line)
