"""documents/filing_cover.py: a filing's form, registrant and fiscal year from its cover's
text, in the shapes real covers print them (made-up companies)."""

from __future__ import annotations

from citewise.documents.filing_cover import FilingCover, read_cover

HEAD = [
    (1, "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"),
    (1, "Washington, D.C. 20549"),
    (1, "FORM 10-K"),
    (1, "(Mark One)"),
    (1, "☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934"),
]


def test_reads_the_name_above_the_registrant_line_and_the_fiscal_year() -> None:
    cover = read_cover([
        *HEAD,
        (1, "For the fiscal year ended September 30, 2019 or"),
        (1, "Commission file number 1-4821"),
        (1, "ORCHARD LANE FOODS, INC."),
        (1, "(Exact name of registrant as specified in its charter)"),
        (1, "Title of each class Name of each exchange\nCommon Stock Chicago Stock Exchange, Inc."),
    ])  # fmt: skip
    assert cover == FilingCover("10-K", "ORCHARD LANE FOODS, INC.", 2019, "September 30, 2019")
    assert cover.title == "ORCHARD LANE FOODS, INC. — Form 10-K, fiscal year 2019"


def test_reads_a_name_on_the_registrant_line_or_after_a_rule_in_a_table() -> None:
    same_line = read_cover([*HEAD, (1, "FOR THE FISCAL YEAR ENDED May 28, 2022"),
                            (1, "Brightwater Labs, Inc. (Exact Name of Registrant as Specified "
                                "in its Charter)")])  # fmt: skip
    assert same_line is not None and same_line.registrant == "Brightwater Labs, Inc."
    assert same_line.fiscal_year == 2022
    in_table = read_cover([*HEAD, (1, "For the fiscal year ended January 31, 2015\nCommission "
                                      "File No. 000-1234 ______ KESTREL.COM, INC."),
                           (1, "(Exact name of registrant as specified in its charter)")],
                          )  # fmt: skip
    assert in_table is not None and in_table.registrant == "KESTREL.COM, INC."
    assert in_table.fiscal_year == 2015


def test_a_cover_whose_name_is_a_logo_takes_the_first_corporate_name_not_an_exchange() -> None:
    cover = read_cover([
        *HEAD,
        (1, "For the fiscal year ended December 31, 2020"),
        (1, "Chicago Stock Exchange, Inc. New York Stock Exchange, Inc."),
        (1, "DOCUMENTS INCORPORATED BY REFERENCE"),
        (3, "Marrow Creek Holdings Company was incorporated in Ohio in 1911."),
    ])  # fmt: skip
    assert cover is not None and cover.registrant == "Marrow Creek Holdings Company"
    assert cover.fiscal_year == 2020


def test_a_quarterly_report_gives_its_period() -> None:
    cover = read_cover([(1, "SECURITIES AND EXCHANGE COMMISSION"), (1, "FORM 10-Q"),
                        (1, "For the quarterly period ended March 31, 2023"),
                        (1, "Peregrine Tools Corp."),
                        (1, "(Exact name of registrant as specified in its charter)")])  # fmt: skip
    assert cover == FilingCover("10-Q", "Peregrine Tools Corp.", 2023, "March 31, 2023")


def test_a_paper_is_no_filing() -> None:
    paper = [(1, "Dense Retrieval for Annual Reports"), (1, "Jane Roe, Acme Research Company"),
             (1, "Abstract. We study 10-K filings from the fiscal year ended 2019."),
             (2, "Form 10-K filings are long.")]  # fmt: skip
    assert read_cover(paper) is None
