/** The small local index the `retrieve` action searches: a library's help-desk notes. */
export interface Passage {
  id: string;
  title: string;
  text: string;
}

export const LIBRARY: Passage[] = [
  { id: "hours", title: "Opening hours", text: "The library opens Monday to Friday from 9:00 to 20:00 and on Saturdays from 10:00 to 16:00. It is closed on Sundays and public holidays." },
  { id: "loans", title: "Loans", text: "Books are lent for three weeks. A loan can be renewed twice, at the desk, online or by asking the help desk with your library card number, unless someone has reserved the book." },
  { id: "fines", title: "Late returns", text: "A book returned late costs 20 cents per day, at most 5 euros per book. Children's books have no late fees." },
  { id: "reading-room", title: "Reading room", text: "The reading room on the second floor is a quiet space with 40 desks and power sockets. Seats cannot be reserved." },
  { id: "card", title: "Library card", text: "A library card is free for residents. Bring an identity document to the desk; the card number is printed on its back and has five digits." },
  { id: "wifi", title: "Wi-Fi", text: "Free Wi-Fi covers the whole building. The network is called Library-Guest and needs no password." },
];
